# Sourced by the scripts that install pinned npm packages for the tests
# (conformance.sh, authserver.sh, openapi-deps.sh, browser.sh).
# Expects TOOLS, the cache folder (default .tools, or MCPDECL_TOOLS_DIR).
#
# npm_ci NAME SRC [npm flags...]: copy SRC/package.json and
# SRC/package-lock.json into $TOOLS/NAME and `npm ci` there, unless that
# exact lock is installed already (its hash is kept in .installed).
npm_ci() {
  local name=$1 src=$2 dst=$TOOLS/$1 sum
  shift 2
  sum=$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -d' ' -f1)
  if [[ -f $dst/.installed && $(cat "$dst/.installed") == "$sum" && -d $dst/node_modules ]]; then
    return 0
  fi
  rm -rf "$dst" && mkdir -p "$dst"
  cp "$src/package.json" "$src/package-lock.json" "$dst/"
  (cd "$dst" && npm ci "$@" --no-audit --no-fund --loglevel=error >"$dst/npm-ci.log" 2>&1) || {
    echo "npm ci failed for $name:" >&2
    cat "$dst/npm-ci.log" >&2
    return 1
  }
  echo "$sum" >"$dst/.installed"
}

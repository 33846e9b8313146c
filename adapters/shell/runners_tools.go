package shelladapter

import "strings"

// sshCodeKey reports the ssh_config keywords whose value is a command run
// locally (RemoteCommand runs on the host, as the command operand does).
var sshCodeKey = containsAny("command", "match", "include", "pkcs11provider", "securitykeyprovider", "askpass", "forwardagent")

// gitCodeKey reports every git setting but those known to be only text:
// too many run programs (core.sshCommand, core.pager, alias.*, *.textconv,
// filter.*, credential.helper, core.fsmonitor, core.hooksPath ...).
func gitCodeKey(key string) bool {
	k := strings.ToLower(key)
	for _, safe := range []string{"user.", "author.", "committer.", "color.", "advice.", "i18n.", "column.", "init.defaultbranch"} {
		if strings.HasPrefix(k, safe) {
			return false
		}
	}
	return true
}

// addToolRunners adds the programs listed in this file to the runners
// table, after addRunners.
func addToolRunners() {
	add := func(r *runner, names ...string) {
		for _, n := range names {
			runners[n] = r
		}
	}
	sub := func(r *runner, names ...string) map[string]*runner {
		m := map[string]*runner{}
		for _, n := range names {
			m[n] = r
		}
		return m
	}
	merge := func(ms ...map[string]*runner) map[string]*runner {
		out := map[string]*runner{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}

	// Remote shells and file transfer: the command run on the host, the
	// programs run to connect (ProxyCommand, -S, -e).
	add(&runner{opts: opts(optKeyed, "-o", optValue, "-B -b -c -D -E -e -F -I -i -J -L -l -m -O -p -Q -R -S -W -w"),
		codeKey: sshCodeKey, mode: mode{roleCode, 1}, stop: true}, "ssh")
	add(&runner{opts: opts(optKeyed, "-o", optProgram, "-S", optValue, "-c -D -F -i -J -l -P -X"), codeKey: sshCodeKey}, "scp")
	add(&runner{opts: opts(optKeyed, "-o", optProgram, "-S -D", optValue, "-B -b -c -F -i -J -l -P -R -s -X"), codeKey: sshCodeKey, stdin: true}, "sftp")
	add(&runner{opts: opts(optCode, "-C --command", optKeyed, "-o"), codeKey: sshCodeKey}, "check_by_ssh")
	add(&runner{opts: opts(optCode, "-e --rsh --rsync-path",
		optValue, "-B --block-size -f --filter --exclude --include --exclude-from --include-from --files-from -T --temp-dir --partial-dir --log-file --log-file-format --out-format --bwlimit --timeout --port --password-file --chmod --chown --max-size --min-size --compare-dest --copy-dest --link-dest --backup-dir --suffix --usermap --groupmap --iconv --sockopts --modify-window --compress-level --checksum-choice --max-delete --info --debug -M --remote-option")},
		"rsync")
	add(&runner{opts: opts(optCode, "-c --command", optValue, "-U --user -W --workgroup -I --ip-address -p --port -A --authentication-file -s --configfile -D --directory -T --tar"), stdin: true}, "smbclient")
	add(&runner{stdin: true}, "ftp", "tftp", "telnet")
	add(&runner{opts: opts(optCode, "-c -e"), stdin: true}, "lftp")
	add(&runner{mode: mode{roleCode, 0}, stop: true}, "socat")

	// Archivers and package tools: commands to filter, test or install.
	add(&runner{opts: opts(optCode, "--to-command --checkpoint-action --info-script --new-volume-script -F --rsh-command --rmt-command --use-compress-program -I",
		optValue, "-f --file -C --directory -b --blocking-factor -g --listed-incremental -K --starting-file -L -N --newer --after-date -T --files-from -V --label -X --exclude-from --exclude --owner --group --mode --mtime --transform --xform --format -H --record-size --strip-components --suffix --occurrence --tape-length --checkpoint")},
		"tar", "gtar", "bsdtar")
	add(&runner{opts: opts(optCode, "-TT --unzip-command", optValue, "-b -n -t -tt -x -i -P -Z -O --output-file")}, "zip")
	add(&runner{opts: opts(optCode, "--pre-invoke --post-invoke --status-logger", optValue, "--root --instdir --admindir"),
		modes: modesOf(mode{roleCode, 0}, "-i --install --unpack")}, "dpkg")
	add(&runner{opts: opts(optKeyed, "-o --option", optValue, "-c --config-file -t --target-release -a --host-architecture"), codeKey: anyKey},
		"apt", "apt-get", "apt-cache", "aptitude")
	add(&runner{opts: opts(optCode, "--eval -E --define -D --pipe"), modes: modesOf(mode{roleCode, 0}, "-i --install -U --upgrade -F --freshen --reinstall")},
		"rpm", "rpmquery", "rpmbuild", "rpmspec")
	pipInstall := &runner{opts: opts(optCode, "-i --index-url --extra-index-url -f --find-links", optProgram, "-r --requirement -c --constraint -e --editable",
		optValue, "-t --target --prefix --root --src --python-version --platform --implementation --abi --cache-dir --log -d --dest -w --wheel-dir --progress-bar --timeout --retries --proxy --trusted-host --no-binary --only-binary --config-settings --global-option"),
		mode: mode{roleCode, 0}}
	add(&runner{opts: opts(optValue, "--python --log --proxy --timeout --cache-dir"), subs: sub(pipInstall, "install", "download", "wheel")}, "pip", "pip3")
	npmExec := wrapper(0, opts(optCode, "-c --call", optProgram, "-p --package"))
	npmInstall := &runner{mode: mode{roleCode, 0}}
	npmRun := &runner{mode: mode{roleProgram, 0}, stop: true, script: true}
	add(&runner{subs: merge(sub(npmRun, "run", "run-script", "rum", "urn"), sub(npmExec, "exec", "x", "dlx"), sub(npmInstall, "install", "i", "add", "isntall", "in", "ins", "inst", "insta", "instal"))}, "npm", "pnpm", "yarn")
	add(npmExec, "npx")
	add(&runner{subs: sub(&runner{mode: mode{roleCode, 0}, opts: opts(optCode, "-s --source", optValue, "-v --version -i --install-dir -n --bindir")}, "install", "i")}, "gem")
	goBuild := &runner{opts: opts(optProgram, "-toolexec -exec -overlay -modfile", optCode, "-ldflags -gcflags -asmflags", optValue, "-o -C -p -tags -mod -pkgdir -coverpkg -run -bench -count -timeout")}
	goRun := &runner{opts: goBuild.opts, mode: mode{roleProgram, 0}, stop: true, script: true}
	add(&runner{subs: merge(sub(goRun, "run"), sub(goBuild, "build", "test", "install", "vet", "generate"))}, "go")
	add(&runner{opts: opts(optKeyed, "--config", optValue, "-C -Z"), codeKey: anyKey}, "cargo")
	add(&runner{opts: opts(optCode, "--eval -E", optValue, "-f --file --makefile -C --directory -I --include-dir -j --jobs -l --load-average -o --old-file --assume-old -W --what-if --new-file --assume-new -O --output-sync"),
		mode: mode{roleCode, 0}}, "make", "gmake")

	// Version control: settings and transport helpers that run programs.
	gitFetch := &runner{opts: opts(optProgram, "--upload-pack --receive-pack --exec", optValue, "-o --server-option --depth --shallow-since --shallow-exclude -j --jobs --filter --refmap -s --strategy -X --strategy-option")}
	gitClone := &runner{opts: opts(optKeyed, "-c --config", optProgram, "-u --upload-pack --template",
		optValue, "-o --origin -b --branch --reference --reference-if-able --separate-git-dir --depth --shallow-since --shallow-exclude -j --jobs --filter --server-option --bundle-uri"),
		codeKey: gitCodeKey}
	gitLsRemote := &runner{opts: opts(optProgram, "-u --upload-pack", optValue, "-o --server-option --sort")}
	gitConfig := &runner{opts: opts(optValue, "-f --file --blob --type --default --comment"), keyOperands: true, codeKey: gitCodeKey}
	add(&runner{opts: opts(optKeyed, "-c --config-env", optProgram, "--exec-path", optValue, "-C --git-dir --work-tree --namespace --super-prefix --list-cmds --attr-source"),
		codeKey: gitCodeKey, stop: true,
		subs: merge(sub(gitFetch, "fetch", "pull", "push", "archive", "fetch-pack", "send-pack", "submodule"), sub(gitClone, "clone"), sub(gitLsRemote, "ls-remote"), sub(gitConfig, "config"))},
		"git")

	// Editors, pagers and debuggers whose commands run programs.
	vim := &runner{opts: opts(optCode, "-c --cmd", optProgram, "-S -u -U", optValue, "-i -T -w -W -s -r -t -q --servername --remote --remote-send --remote-expr"), cmdLead: "+", stdin: true}
	add(vim, "vim", "vi", "nvim", "view", "vimdiff", "rvim", "gvim", "ex", "vim.basic", "vim.tiny", "nvi", "elvis")
	add(&runner{opts: opts(optValue, "-b -h -j -k -o -O -p -P -t -T -x -y -z --log-file --tag --pattern --prompt"), cmdLead: "+"}, "less", "more", "most")
	add(&runner{opts: opts(optProgram, "-P --pager -H --html", optValue, "-M -S -s -e -m -p -L -C -R -E -r --manpath --sections --extension --systems --preprocessor --locale --config-file --recode --encoding")}, "man")
	add(&runner{opts: opts(optProgram, "-s --speller", optValue, "-Y --syntax -o --operatingdir -T --tabsize -r --fill -Q --quotestr -X --wordchars")}, "nano", "pico", "rnano")
	add(&runner{cmdLead: "!", stdin: true, opts: opts(optValue, "-p --prompt")}, "ed", "red")
	add(&runner{opts: opts(optCode, "-ex --ex -eval-command --eval-command -iex --iex -init-eval-command --init-eval-command",
		optProgram, "-x --x -command --command -ix -init-command --init-command",
		optValue, "-cd --cd -d --directory -s --symbols -e --exec -se -c --core -p -pid --pid -b -data-directory --data-directory"), stdin: true, longOnly: true},
		"gdb", "gdb-multiarch", "cgdb")
	add(&runner{opts: opts(optCode, "--eval -eval --execute -f --funcall", optProgram, "-l --load"), longOnly: true}, "emacs", "emacsclient")
	add(&runner{opts: opts(optCode, "-e")}, "mutt", "neomutt")
	add(&runner{opts: opts(optCode, "-E --exec")}, "mail", "mailx", "s-nail")
	add(&runner{opts: opts(optCode, "-b --batch")}, "gimp")
	add(&runner{cmdLead: `\&`}, "tex", "latex", "pdflatex", "xelatex", "lualatex", "pdftex", "luatex", "etex")

	// Finders whose primaries run a program on what they find.
	add(&runner{execs: []string{"-exec", "-execdir", "-ok", "-okdir"}}, "find", "gfind")
	add(&runner{execs: []string{"-x", "--exec", "-X", "--exec-batch"}}, "fd", "fdfind")

	// Services that run hooks, and network tools with command options.
	add(&runner{opts: opts(optCode, "--up --down --route-up --route-pre-down --ipchange --client-connect --client-disconnect --learn-address --auth-user-pass-verify --tls-verify --tls-crypt-v2-verify --iproute",
		optProgram, "--plugin --config")}, "openvpn")
	add(&runner{opts: opts(optCode, "--on-download-complete --on-download-error --on-download-start --on-download-pause --on-download-stop --on-bt-download-complete")}, "aria2c")
	add(&runner{opts: opts(optProgram, "-z", optValue, "-i -w -r -c -s -C -G -W -E -F -B -j -T -y -Z -M -V")}, "tcpdump")
	add(&runner{opts: opts(optProgram, "--script --datadir", optValue, "-p -iL -oN -oX -oG -oA -e -S -D -g --source-port --host-timeout --script-args"), longOnly: true}, "nmap")
	add(&runner{opts: opts(optCode, "-X"), stdin: true}, "tshark")
	add(&runner{stdin: true, opts: opts(optProgram, "-f")}, "at", "batch")
	add(&runner{stdin: true}, "crontab")

	// Container and session managers: the command run inside.
	dockerValues := "-e --env -v --volume -w --workdir -u --user --name -p --publish -m --memory --network --net -h --hostname -l --label --mount --device --add-host --cpus --env-file --platform --pull --restart --stop-signal --log-driver --log-opt --ulimit --tmpfs --security-opt --cap-add --cap-drop --dns --ip --shm-size --gpus --runtime --pid --ipc --uts --userns --group-add --detach-keys --cidfile --health-cmd"
	dockerRun := wrapper(1, opts(optProgram, "--entrypoint", optValue, dockerValues))
	dockerRun.opts["--health-cmd"] = optCode
	add(&runner{opts: opts(optValue, "-H --host -c --context --config -l --log-level"), stop: true, subs: sub(dockerRun, "run", "exec", "create")}, "docker", "podman", "nerdctl")
	kubectlExec := wrapper(1, opts(optValue, "-c --container -n --namespace --image -l --selector --context --kubeconfig"))
	add(&runner{opts: opts(optValue, "-n --namespace --context --kubeconfig -s --server --cluster --user"), stop: true, subs: sub(kubectlExec, "exec", "run", "debug")}, "kubectl", "oc")
	tmuxCode := &runner{opts: opts(optValue, "-t -s -n -c -x -y -e -F -l -w -h -b -L -S"), mode: mode{roleCode, 0}}
	add(&runner{opts: opts(optValue, "-L -S -f -T"), stop: true,
		subs: sub(tmuxCode, "new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "run-shell", "run", "if-shell", "if", "pipe-pane", "pipep", "display-popup", "popup")},
		"tmux")
	add(wrapper(0, opts(optCode, "-X", optValue, "-S -c -e -h -p -T -t -Logfile")), "screen")
	add(&runner{subs: sub(&runner{subs: sub(wrapper(1, nil), "exec")}, "netns", "vrf")}, "ip")
	add(&runner{subs: sub(wrapper(0, opts(optValue, "-e -o -p -t -c -F --call-graph --output --event --pid --tid")), "record", "stat", "trace")}, "perf")
}

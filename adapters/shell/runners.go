package shelladapter

import (
	"strings"
	"sync"
)

// runners lists the programs, by base name, that run part of their
// command line: the GTFOBins catalogue's "shell" and "command" entries,
// plus the package managers, build tools and editors that do the same.
// Names with a version suffix (python3.12, lua5.4) are found by their
// stem. The shells and interpreters are checked by interp.go too, which
// gives them their own advice; here they add combined and attached forms
// (-Ic, "-e${args.x}", --eval=...). Tools with subcommands and the
// programs of a single purpose are in runners_tools.go.
//
// The table is built on first use (runnerTable): it holds some 100 kB that
// a server without a shell tool would keep for nothing, and that every
// collection of the server's heap would scan.
var (
	runners     map[string]*runner
	runnersOnce sync.Once
)

// runnerTable is the runners table, built on the first call.
func runnerTable() map[string]*runner {
	runnersOnce.Do(func() {
		runners = map[string]*runner{}
		addRunners()
		addToolRunners()
	})
	return runners
}

// addRunners adds the programs listed in this file to the runners table.
func addRunners() {
	add := func(r *runner, names ...string) {
		for _, n := range names {
			runners[n] = r
		}
	}
	// Programs that run their operand as a program, with the rest as its
	// command line: what they run is checked in turn.
	add(wrapper(0, opts(optValue, "-u --unset -C --chdir -a --argv0", optCode, "-S --split-string", optProgram, "-P")), "env")
	runners["env"].assigns = true
	runners["env"].splits = true
	add(wrapper(1, opts(optValue, "-s --signal -k --kill-after")), "timeout")
	add(wrapper(0, opts(optValue, "-n --adjustment")), "nice")
	add(wrapper(0, nil), "nohup", "setsid", "busybox", "exec", "command", "linux32", "linux64",
		"dbus-run-session", "catchsegv", "unbuffer", "torsocks", "tini", "dumb-init", "valgrind", "firejail", "ssh-agent")
	add(wrapper(0, opts(optValue, "-i -o -e --input --output --error")), "stdbuf")
	add(wrapper(1, opts(optValue, "--userspec --groups")), "chroot")
	add(&runner{opts: opts(optValue, "-c --class -n --classdata"), mode: mode{roleProgram, 0}, stop: true,
		modes: modesOf(mode{roleData, 0}, "-p --pid -P --pgid -u --uid")}, "ionice")
	add(&runner{opts: opts(optValue, "-T -P -D --sched-runtime --sched-period --sched-deadline"), mode: mode{roleProgram, 1}, stop: true,
		modes: modesOf(mode{roleData, 0}, "-p --pid")}, "chrt")
	add(&runner{mode: mode{roleProgram, 1}, stop: true, modes: modesOf(mode{roleData, 0}, "-p --pid")}, "taskset")
	add(wrapper(0, opts(optValue, "-f --format -o --output")), "time")
	add(wrapper(0, opts(optValue, "-e -o -p -s -u -E -a -b -I -O -S -P -X --output --attach --user --env")), "strace")
	add(wrapper(0, opts(optValue, "-e -o -p -s -u -a -n -l -w -F -x -A -D --output --library --indent")), "ltrace")
	add(wrapper(0, opts(optValue, "-u --user -g --group -C --close-from -D --chdir -p --prompt -r --role -t --type -U --other-user -T --command-timeout -R --chroot -h --host")), "sudo")
	runners["sudo"].assigns = true
	runners["sudo"].modes = modesOf(mode{roleCode, 0}, "-s --shell -i --login")
	add(&runner{opts: opts(optValue, "-u -C"), mode: mode{roleProgram, 0}, stop: true, modes: modesOf(mode{roleCode, 0}, "-s")}, "doas")
	su := func() *runner {
		return &runner{opts: opts(optCode, "-c --command --session-command", optProgram, "-s --shell",
			optValue, "-g --group -G --supp-group -w --whitelist-environment", optFlag, "-"),
			mode: mode{roleCode, 1}}
	}
	add(su(), "su")
	add(su(), "runuser")
	runners["runuser"].opts = opts(optCode, "-c --command --session-command", optProgram, "-s --shell",
		optValue, "-g --group -G --supp-group -w --whitelist-environment -u --user", optFlag, "-")
	runners["runuser"].modes = modesOf(mode{roleProgram, 0}, "-u --user")
	runners["runuser"].stop = true
	add(&runner{opts: opts(optCode, "-c"), mode: mode{roleCode, 1}}, "sg")
	add(wrapper(1, opts(optCode, "-c --command", optValue, "-w --wait --timeout -E --conflict-exit-code")), "flock")
	add(&runner{opts: opts(optCode, "-c --command", optValue, "-E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m --logging-format")}, "script")
	add(wrapper(0, opts(optValue, "-S --setuid -G --setgid -R --root -w --wd --map-user --map-group --propagation --setgroups")), "unshare")
	add(wrapper(0, opts(optValue, "-t --target -S --setuid -G --setgid")), "nsenter")
	add(&runner{opts: opts(optProgram, "--shell"), modes: modesOf(mode{roleCode, 0}, "--")}, "capsh")
	add(&runner{opts: opts(optProgram, "-x --exec -a --startas",
		optFlag, "-S --start -K --stop -T --status -H --help -V --version -b --background -m --make-pidfile -o --oknodo -q --quiet -v --verbose -t --test",
		optValue, "-p --pidfile -n --name -u --user -c --chuid -r --chroot -d --chdir -N --nicelevel -P --procsched -I --iosched -k --umask -R --retry -s --signal -g --group --output")},
		"start-stop-daemon")
	add(wrapper(0, opts(optKeyed, "-p --property", optValue, "-u --unit -M --machine -H --host -E --setenv --description --slice --uid --gid --nice --working-directory --on-active --on-calendar")), "systemd-run")
	runners["systemd-run"].codeKey = containsAny("exec")
	add(wrapper(0, opts(optValue, strings.Join(xargsValueFlags, " "))), "xargs")
	add(&runner{opts: opts(optValue, "-n --interval -q --equexit"), mode: mode{roleCode, 0}, stop: true,
		modes: modesOf(mode{roleProgram, 0}, "-x --exec")}, "watch")
	add(&runner{opts: opts(optValue, "-j --jobs -S --sshlogin --sshloginfile -a --arg-file --colsep -d --delimiter -E -I --results --joblog --tmpdir --timeout"),
		mode: mode{roleCode, 0}, stop: true, ends: []string{":::", "::::", ":::+", "::::+"}}, "parallel", "sem")
	add(wrapper(0, opts(optValue, "-w -t")), "caffeinate")
	add(wrapper(1, nil), "setarch", "logsave", "faketime", "gosu", "su-exec", "setuidgid", "s6-setuidgid")
	add(wrapper(0, opts(optValue, "-l --limit -p --pid -e --exe")), "cpulimit")
	add(wrapper(0, opts(optValue, "-C -N -m -p -i --cpunodebind --membind --physcpubind --preferred --interleave")), "numactl")
	add(wrapper(0, opts(optValue, "-g")), "cgexec")
	add(wrapper(0, opts(optValue, "--user")), "pkexec")
	add(wrapper(0, opts(optValue, "-p -f -d -P")), "sshpass")
	add(wrapper(0, opts(optValue, "-n --server-num -s --server-args -f --auth-file -e --error-file -p --xauth-protocol")), "xvfb-run")
	add(wrapper(0, opts(optValue, "-f")), "proxychains", "proxychains4")
	add(&runner{mode: mode{roleProgram, 0}, stop: true, modes: modesOf(mode{roleCode, 0}, "-s")}, "entr")
	add(&runner{opts: opts(optCode, "-p --prepare -c --cleanup -s --setup --conclude", optValue, "-w --warmup -r --runs -m --min-runs -M --max-runs -S --shell --export-json --export-csv --export-markdown -n --command-name -L --parameter-list -P --parameter-scan"),
		mode: mode{roleCode, 0}}, "hyperfine")
	add(&runner{mode: mode{roleCode, 0}, stop: true, opts: opts(optValue, "-w --watch -e --exts -d --debounce -i --ignore")}, "watchexec")
	add(&runner{mode: mode{roleProgram, 0}, stop: true, script: true}, "service", "run-parts")

	// Shells and interpreters: the code after their flag, or the script
	// file that is their first operand (what follows it is data).
	shell := &runner{opts: opts(optCode, "-c", optValue, "-o -O"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-c -s")}
	for _, s := range Shells {
		if s != "busybox" {
			add(shell, s)
		}
	}
	add(&runner{opts: opts(optCode, "-c", optProgram, "-m", optValue, "-W -X"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-c -m")}, "python", "pypy", "pypy3")
	add(&runner{opts: opts(optCode, "-e -E", optProgram, "-M -m", optValue, "-I"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-e -E")}, "perl")
	add(&runner{opts: opts(optCode, "-e", optProgram, "-r --require", optValue, "-I -C -E -F --encoding --external-encoding --internal-encoding"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-e")}, "ruby")
	add(&runner{opts: opts(optCode, "-e --eval -p --print", optProgram, "-r --require --import --loader --experimental-loader"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-e --eval -p --print")}, "node", "nodejs", "bun", "deno")
	add(&runner{opts: opts(optCode, "-r -B -R -E", optProgram, "-f -F", optKeyed, "-d", optValue, "-c -z"), mode: mode{roleProgram, 0}, stop: true, script: true, codeKey: anyKey,
		modes: modesOf(mode{roleData, 0}, "-r -f")}, "php")
	add(&runner{opts: opts(optCode, "-e", optProgram, "-l"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-e")}, "lua", "luajit")
	add(&runner{opts: opts(optCode, "-e", optProgram, "--file"), stdin: true}, "R")
	add(&runner{opts: opts(optCode, "-e", optProgram, "--file"), mode: mode{roleProgram, 0}, stop: true, script: true,
		modes: modesOf(mode{roleData, 0}, "-e")}, "Rscript")
	add(&runner{opts: opts(optCode, "-c", optProgram, "-f"), mode: mode{roleProgram, 0}, stop: true, script: true, stdin: true,
		modes: modesOf(mode{roleData, 0}, "-c -f")}, "expect")
	add(&runner{mode: mode{roleProgram, 0}, stop: true, script: true, stdin: true}, "tclsh", "wish", "jjs")
	add(&runner{opts: opts(optProgram, "-r", optValue, "-I"), mode: mode{roleProgram, 0}, stop: true, script: true, stdin: true}, "irb")
	add(&runner{opts: opts(optCode, "-e", optProgram, "-f"), mode: mode{roleProgram, 0}, stop: true, script: true}, "jrunscript")
	add(&runner{opts: opts(optCode, "-e --expression", optProgram, "-f --file"), stdin: true}, "dc")
}

# Shared by the command-line test scripts (source it after setting $dir, a scratch directory):
# pass/fail counters, the checks that a command fails with its message on standard error (an
# error, a usage error), and the closing line CTest reads.
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# check_failure DESCRIPTION MESSAGE-SUBSTRING EXIT COMMAND...: COMMAND exits with EXIT (or, for
# EXIT "any", with any non-zero status; kept in $last_rc) and MESSAGE is on standard error, which
# holds that one line only.
check_failure() {
  local what=$1 message=$2 want=$3
  shift 3
  "$@" >"$dir/out" 2>"$dir/err"
  last_rc=$?
  if [ $last_rc -eq 0 ] || { [ "$want" != any ] && [ $last_rc -ne "$want" ]; }; then
    bad "$what: exit $last_rc, $(cat "$dir/err")"
    return
  fi
  if ! grep -qF -- "$message" "$dir/err"; then bad "$what: stderr lacks '$message': $(cat "$dir/err")"; return; fi
  if [ "$(wc -l <"$dir/err")" -ne 1 ]; then bad "$what: more than one line on stderr"; return; fi
  ok
}

# expect_error DESCRIPTION MESSAGE-SUBSTRING COMMAND...: exit 1 (an error) and the message, alone
# on standard error.
expect_error() { check_failure "$1" "$2" 1 "${@:3}"; }

# expect_usage DESCRIPTION MESSAGE-SUBSTRING COMMAND...: exit 2 (a usage error), the message alone
# on standard error and nothing on standard output.
expect_usage() {
  local before=$failed
  check_failure "$1" "$2" 2 "${@:3}"
  [ "$failed" -ne "$before" ] && return
  if [ -s "$dir/out" ]; then passed=$((passed - 1)); bad "$1: wrote to standard output: $(head -c 200 "$dir/out")"; fi
}

# on_terminal COMMAND...: runs COMMAND with standard error on a pseudo-terminal (so progress bars
# draw) and prints what it wrote there, with the terminal's CR LF line ends back to LF. Exits 77
# where the system has no pseudo-terminal to give (a chroot without /dev/pts).
on_terminal() {
  python3 - "$@" <<'PY'
import os, pty, subprocess, sys
try:
    m, s = pty.openpty()
except OSError:
    sys.exit(77)
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=s)
os.close(s)
out = b""
while True:
    try:
        d = os.read(m, 65536)
    except OSError:
        break
    if not d:
        break
    out += d
sys.stdout.write(out.decode(errors="replace").replace("\r\n", "\n"))
sys.exit(p.wait())
PY
}

# The closing line, and the exit status: 0 when nothing failed.
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

"""What the independent readers share: the docs' sections and tables read as text, a pass/fail
tally with the closing line CTest reads, and a command run with its output captured."""
import re
import subprocess


def section(text, title):
    """Lines under the heading 'title' (any level) up to the next heading of that level or above."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"(#+) (.*)", line)
        if m and m.group(2) == title:
            level = len(m.group(1))
            end = next((j for j in range(k + 1, len(lines)) if re.match(r"#{1,%d} " % level, lines[j])), len(lines))
            return lines[k + 1:end]
    raise AssertionError(f"no section '{title}'")


def tables(lines):
    """Every markdown table in lines: a list of row lists (header and rule skipped)."""
    found, current = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            current.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif current:
            found.append(current[2:])
            current = []
    return found


class Checks:
    """Counts checks; prints each failure as it happens."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, condition, what):
        if condition:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}", flush=True)
        return condition


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)

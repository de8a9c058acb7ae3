#!/usr/bin/env python3
"""html_check.chromium() runs a browser killed by a signal once more, and
only once: a fake browser that dies of SIGSEGV on its first run and answers
on its second is answered; one that always dies gives the dead run back (the
negative control: the retry does not hide a browser that cannot run). No
Chromium needed. Exit 0 when both hold."""
import os
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import html_check  # noqa: E402


def fake(path, dies_first_only):
    # the marker file counts runs: the first run makes it
    body = ('#!/bin/sh\nm="$(dirname "$0")/ran"\n'
            + ('if [ -e "$m" ]; then echo answered; exit 0; fi\n' if dies_first_only else '')
            + 'touch "$m"\nkill -SEGV $$\n')
    with open(path, "w") as f:
        f.write(body)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def run(dies_first_only):
    d = tempfile.mkdtemp()
    exe = os.path.join(d, "chromium")
    fake(exe, dies_first_only)
    return html_check.chromium(exe, os.path.join(d, "profile"), ["--dump-dom", "about:blank"], timeout=10)


def main():
    ok = True
    r = run(True)
    if r.returncode != 0 or r.stdout.strip() != "answered":
        print(f"FAIL: a browser that crashed once was not run again (exit {r.returncode}, {r.stdout!r})")
        ok = False
    r = run(False)
    if r.returncode >= 0:
        print(f"FAIL: a browser that always crashes was answered (exit {r.returncode})")
        ok = False
    print("PASS" if ok else "")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""kill_matrix.py — which engine kills which mutant (issue 15, item 6).

Runs `tagproof review --variant M` for every mutant and control that
`tagproof variants --mutants` lists and for every variant file of our own
mutants in tests/mutation/mutants (`--variant-file F`), two at a time, reads each (property, mode) banner the
review prints, and counts a mutant killed by an engine when that engine gave
a counterexample to a finding the mutant introduces (not one recorded, not
one its baseline shows too). Writes a Markdown table; the command and the
time of each review are in it.

    scripts/kill_matrix.py [--tagproof build/cli/tagproof] [--out docs/kill-matrix.md]
    scripts/kill_matrix.py --check docs/kill-matrix.md   # ctest: no mutant loses a deterministic engine

With --check it recomputes the matrix and fails (exit 1, naming the mutant and
the engine) where corpus, solver or explorer no longer kill a mutant the file
says they kill, or where a positive twin (killed by none in the file) is
killed; RapidCheck's column is random and is not held. With --lean too, a
mutant's review runs only the engines the check reads: the deterministic ones
the file says kill it (the corpus always: a review cannot leave it out), and
every engine for a positive twin; --whole NAME reviews NAME with every engine
all the same (another test reads its kept review).
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import time

ENGINES = ["corpus", "solver", "explorer", "rapidcheck"]


MUTANT_FILES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "mutation", "mutants")


def mutants(tp):
    """(name, variant file or None): the built-in mutants and controls, then our own files."""
    out = subprocess.run([tp, "variants", "--mutants"], capture_output=True, text=True, check=True).stdout
    names, in_mutants = [], False
    for line in out.splitlines():
        if line.startswith("mutants"):
            in_mutants = True
        elif in_mutants and line and not line.startswith(" ") and " base " in line:
            names.append((line.split()[0], None))
    for f in sorted(glob.glob(os.path.join(MUTANT_FILES, "*.variant"))):
        name = next(l.split()[1] for l in open(f) if l.startswith("name "))
        names.append((name, os.path.normpath(f)))
    return names


SCENARIOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "scenarios")


def newest_input(tp, file):
    """The newest of what a review reads: the binary, the variant file, the corpus scenarios."""
    times = [os.path.getmtime(tp)] + ([os.path.getmtime(file)] if file else [])
    times += [os.path.getmtime(f) for f in glob.glob(os.path.join(SCENARIOS, "**", "*.litmus"), recursive=True)]
    return max(times)


def kept_review(tp, keep, name, file):
    """A review --keep wrote after everything it read: (stdout, exit status), else None."""
    rc_file = os.path.join(keep, name + ".rc")
    try:
        if os.path.getmtime(rc_file) <= newest_input(tp, file):
            return None
        with open(os.path.join(keep, name + ".stdout")) as f:
            out = f.read()
        with open(rc_file) as f:
            return out, int(f.read().strip())
    except (OSError, ValueError):
        return None


def review(tp, name, out_dir, file=None, keep="", skip=()):
    """Review one mutant; with keep, its --out is keep/NAME and its stdout and exit status are
    kept beside it (review.control.* and the planted control read them), or read from there
    when a review of this binary is kept already. skip: engines left out (--no-solver, ...);
    such a review is kept as NAME.without-ENGINES, never read as a whole one."""
    t0 = time.monotonic()
    kept_name = name + (".without-" + "-".join(sorted(skip)) if skip else "")
    cmd = [tp, "review", "--variant", name, "--out", os.path.join(keep, kept_name) if keep else out_dir]
    cmd += ["--no-" + e for e in sorted(skip)]
    if file:
        cmd[2:2] = ["--variant-file", file]
    name = kept_name  # the files kept beside it
    got = kept_review(tp, keep, name, file) if keep else None
    if got is None:
        p = subprocess.run(cmd, capture_output=True, text=True)
        stdout, rc = p.stdout, p.returncode
        if keep:
            with open(os.path.join(keep, name + ".stdout"), "w") as f:
                f.write(stdout)
            with open(os.path.join(keep, name + ".rc.tmp"), "w") as f:  # last: it marks the review whole
                f.write(f"{rc}\n")
            os.replace(os.path.join(keep, name + ".rc.tmp"), os.path.join(keep, name + ".rc"))
    else:
        stdout, rc = got
    secs = time.monotonic() - t0
    kills = {e: set() for e in ENGINES}
    banner = None
    for line in stdout.splitlines():
        m = re.match(r"^  (\S+) \[(\w+)\]\s+COUNTEREXAMPLE(.*)$", line)
        if m:
            news = "UNRECORDED" in m.group(3)
            banner = f"{m.group(1)} [{m.group(2)}]" if news else None
            continue
        if re.match(r"^  \S+ \[\w+\]\s+", line):
            banner = None
            continue
        m = re.match(r"^      (corpus|solver|explorer|rapidcheck)\s+counterexample", line)
        # a source whose counterexamples the baseline shows too found the
        # baseline's defect, not the mutant's (review.hpp SourceVerdict)
        if m and banner and not re.search(r"\(also in [^)]*\)$", line):
            kills[m.group(1)].add(banner)
    return kills, secs, rc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tagproof", default="build/cli/tagproof")
    ap.add_argument("--out", default="docs/kill-matrix.md")
    ap.add_argument("--check", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", default=[], help="these mutants only (with --check: its negative control)")
    ap.add_argument("--keep", default="", help="keep each review (--out, stdout, exit status) under this directory, "
                    "or read it from there when kept after the binary was built")
    ap.add_argument("--shard", default="", help="K/N: the K-th of N shards of the mutants (every N-th from the K-th)")
    ap.add_argument("--lean", action="store_true",
                    help="with --check: each review runs only the engines the check reads (the deterministic ones "
                    "the file says kill it; every engine for a positive twin), but for the mutants named with --whole")
    ap.add_argument("--whole", action="append", default=[],
                    help="with --lean: review this mutant with every engine (another test reads its kept review)")
    a = ap.parse_args()
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    want = {}
    if a.check:
        for line in open(a.check):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == len(ENGINES) + 5 and cells[0] not in ("mutant", "---"):
                want[cells[0]] = {e for e, c in zip(ENGINES, cells[2:2 + len(ENGINES)]) if c == "x"}
    selected = [(n, f) for n, f in mutants(a.tagproof) if not a.only or n in a.only]
    if a.shard:
        k, n = (int(x) for x in a.shard.split("/"))
        if not 1 <= k <= n:
            print(f"kill matrix: --shard {a.shard}: K must be 1..N")
            return 2
        selected = selected[k - 1::n]

    def skipped(name):
        """The engines a lean check leaves out of NAME's review. The corpus always runs (a
        review has no switch for it); RapidCheck's column is not held, so it runs only for a
        positive twin, which no engine may kill."""
        if not (a.check and a.lean) or name in a.whole or not want.get(name):
            return ()
        return tuple(e for e in ("solver", "explorer", "rapidcheck") if e == "rapidcheck" or e not in want[name])

    def one(nf):
        name, file = nf
        kills, secs, rc = review(a.tagproof, name, "/tmp/kill-matrix-" + name, file, a.keep, skipped(name))
        props = sorted(set().union(*kills.values()))
        engines = [e for e in ENGINES if kills[e]]
        print(f"{name}: {', '.join(engines) or 'NOT KILLED'} ({secs:.1f} s)", file=sys.stderr)
        return (name, props, kills, engines, secs, rc)

    # two reviews at once: the machine's two cores (each review of one variant is one thread)
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        rows = list(pool.map(one, selected))
    if a.check:
        bad = []
        if not rows:
            print("kill matrix: no mutant named " + ", ".join(a.only))
            return 2
        for name, props, kills, engines, secs, rc in rows:
            if name not in want:
                bad.append(f"{name}: not in {a.check} (run scripts/kill_matrix.py to add it)")
                continue
            for e in ("corpus", "solver", "explorer"):
                if e in want[name] and not kills[e]:
                    bad.append(f"{name}: {e} no longer kills it")
            if not want[name] and engines:
                bad.append(f"{name}: a positive twin, now killed by {', '.join(engines)}")
        for b in bad:
            print("kill matrix: " + b)
        print(f"kill matrix: {len(rows)} mutants checked against {a.check}: " + ("as recorded" if not bad else f"{len(bad)} difference(s)"))
        return 1 if bad else 0
    with open(a.out, "w") as f:
        f.write("# Kill matrix: which engine finds which mutant\n\n")
        f.write("Made by `scripts/kill_matrix.py` (`tagproof review --variant M` for every mutant and control of\n")
        f.write("`tagproof variants --mutants`, and with `--variant-file F` for each of our own mutants in\n")
        f.write("tests/mutation/mutants; docs/mutation.md says why each survivor survives). An engine kills a mutant when it gives a counterexample to a\n")
        f.write("finding the mutant introduces (not recorded, not in its baseline). A positive twin must be\n")
        f.write("killed by none.\n\n")
        f.write("| mutant | findings it introduces | " + " | ".join(ENGINES) + " | engines | review time | exit |\n")
        f.write("|---|---|" + "---|" * len(ENGINES) + "---|---|---|\n")
        for name, props, kills, engines, secs, rc in rows:
            cells = ["x" if kills[e] else "" for e in ENGINES]
            f.write(f"| {name} | {'; '.join(props) or '-'} | " + " | ".join(cells) +
                    f" | {len(engines)} | {secs:.1f} s | {rc} |\n")
        weak = [r[0] for r in rows if len(r[3]) < 2]
        f.write(f"\n{len(rows)} mutants and controls; killed by two engines or more: {len(rows) - len(weak)}; "
                f"by fewer: {', '.join(weak) if weak else 'none'}.\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

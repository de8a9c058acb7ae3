#!/usr/bin/env python3
"""The search engines' cells held to the scenario corpus (issue 34).

  engines_vs_corpus.py --gaps FILE REVIEW.json...        check
  engines_vs_corpus.py --gaps FILE --controls            prove the check can fail

A review runs every corpus scenario under the variant reviewed, and the
solver, the explorer and RapidCheck search the same variant. A cell
(variant, invariant, mode) where a scenario breaks the invariant while a
search engine says "holds" is a path that engine does not reach: the
next patch that breaks the invariant there, with no scenario in the
corpus, would get "holds" from it. Every such cell fails the check unless
the gaps file names it with the bound that misses it; a gap the engines
no longer have (found now, or no scenario breaks the cell any more) fails
too, so the file says what is true today. A solver "holds" is a proof:
it can never be a listed gap.

Gaps file: one line per gap, tab-separated: variant, invariant, mode,
engine, why (the bound or vocabulary that misses the path). # comments.
Exit 0 when every cell agrees, 1 with a FAIL line per disagreement, 2 on
bad input.
"""
import argparse
import json
import sys

SEARCH_ENGINES = ("solver", "explorer", "rapidcheck")


def read_gaps(path):
    gaps = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 5 or not all(p.strip() for p in parts):
                print(f"{path}:{n}: expected variant, invariant, mode, engine and why, tab-separated: {line!r}",
                      file=sys.stderr)
                sys.exit(2)
            v, inv, mode, engine, why = (p.strip() for p in parts)
            if engine not in SEARCH_ENGINES:
                print(f"{path}:{n}: engine '{engine}': expected one of {', '.join(SEARCH_ENGINES)}", file=sys.stderr)
                sys.exit(2)
            if engine == "solver":
                print(f"{path}:{n}: a solver 'holds' is a proof: it cannot be a listed gap", file=sys.stderr)
                sys.exit(2)
            gaps[(v, inv, mode, engine)] = why
    return gaps


def disagreements(reviews):
    """(variant, invariant, mode, engine, scenario detail) for each search engine's
    'holds' in a cell the corpus breaks."""
    out = []
    for r in reviews:
        for cell in r["verdicts"]:
            src = {s["source"]: s for s in cell["sources"]}
            corpus = src.get("corpus")
            if not corpus or corpus["status"] != "counterexample":
                continue
            for engine in SEARCH_ENGINES:
                s = src.get(engine)
                if s and s["status"] == "holds":
                    out.append((r["variant"], cell["property"], cell["mode"], engine, corpus["detail"]))
    return out


def judge(reviews, gaps):
    """FAIL lines: unlisted disagreements, and listed gaps that are gone."""
    fails, seen = [], set()
    reviewed = {r["variant"] for r in reviews}
    for v, inv, mode, engine, detail in disagreements(reviews):
        key = (v, inv, mode, engine)
        seen.add(key)
        if key not in gaps:
            fails.append(f"FAIL {v} {inv} [{mode}]: {engine} says holds; the corpus breaks it ({detail})")
    for key, why in gaps.items():
        if key[0] in reviewed and key not in seen:
            fails.append(f"FAIL {' '.join(key[:2])} [{key[2]}] {key[3]}: listed as a gap ({why}) but not one any more")
    return fails


def cell(variant, prop, mode, **status):
    return {"variant": variant, "verdicts": [{"property": prop, "mode": mode, "sources": [
        {"source": k, "status": v, "detail": "control"} for k, v in status.items()]}]}


def controls(gaps):
    """The check fails where it must: each case a review it has to refuse."""
    cases = {
        "a proof the corpus contradicts": [cell("x", "zeroing", "hw_tags", corpus="counterexample", solver="holds")],
        "an explorer holds, not listed": [cell("x", "zeroing", "hw_tags", corpus="counterexample", explorer="holds")],
        "a listed gap that is gone": [cell("g", "zeroing", "hw_tags", corpus="counterexample", explorer="counterexample")],
    }
    control_gaps = dict(gaps)
    control_gaps[("g", "zeroing", "hw_tags", "explorer")] = "control"
    bad = 0
    for name, reviews in cases.items():
        if not judge(reviews, control_gaps):
            print(f"CONTROL NOT CAUGHT: {name}")
            bad += 1
    agree = [cell("y", "zeroing", "hw_tags", corpus="counterexample", solver="counterexample", explorer="counterexample")]
    if judge(agree, {}):
        print("CONTROL: cells that agree were refused")
        bad += 1
    print(f"{len(cases)} broken reviews refused, one that agrees taken" if not bad else f"{bad} control(s) failed")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gaps", required=True)
    ap.add_argument("--controls", action="store_true")
    ap.add_argument("reviews", nargs="*")
    a = ap.parse_args()
    gaps = read_gaps(a.gaps)
    if a.controls:
        return controls(gaps)
    if not a.reviews:
        print("no review.json given", file=sys.stderr)
        return 2
    reviews = []
    for p in a.reviews:
        try:
            with open(p, encoding="utf-8") as f:
                reviews += json.load(f)["reviews"]
        except (OSError, ValueError, KeyError) as e:
            print(f"{p}: not a tagproof review.json: {e}", file=sys.stderr)
            return 2
    cells = sum(1 for r in reviews for c in r["verdicts"]
                for s in c["sources"] if s["source"] == "corpus" and s["status"] == "counterexample")
    fails = judge(reviews, gaps)
    for f in fails:
        print(f)
    listed = sum(1 for k in gaps if k[0] in {r["variant"] for r in reviews})
    print(f"{len(reviews)} variants, {cells} cells a corpus scenario breaks; {len(disagreements(reviews))} "
          f"search-engine 'holds' among them, {listed} of them listed gaps; {len(fails)} disagreement(s)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

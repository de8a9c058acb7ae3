#!/usr/bin/env python3
"""What a person sees of a `tagproof review --format html` page, checked in a
real browser (headless Chromium).

  html_check.py --chromium PATH --page PAGE --work DIR            check the page
  html_check.py --chromium PATH --page PAGE --work DIR --controls  ... and prove
      the check fails on pages broken on purpose (negative controls)

Two looks at the page, both by Chromium:
  1. the page with a probe script appended (--dump-dom): the layout of the
     "Tags over time" SVG (a non-zero box on the page, visible, shapes and text
     laid out with non-zero boxes) and of the legend (present, visible, its text);
  2. a --screenshot PNG of the page as it is, decoded here (zlib, no imaging
     library): the picture's region and the legend's are not blank, the
     picture has text-dark and tag-coloured pixels, and ink inside the boxes
     of its text elements (the text is drawn: fonts are installed).
Exit 0 when every check passes, 1 with a FAIL line per broken check, 2 when
Chromium cannot run at all.
"""
import argparse
import concurrent.futures
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

WIDTH = 1200  # the viewport: both looks must lay the page out alike

PROBE = r"""
<script>
(async () => {
  if (document.fonts) await document.fonts.ready;
  const box = e => { const r = e.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; };
  const visible = e => { for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
      const s = getComputedStyle(n);
      if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) === 0) return false; }
    return true; };
  const out = {};
  const h2 = [...document.querySelectorAll('h2')].find(e => e.textContent.trim() === 'Tags over time');
  out.heading = !!h2;
  let svg = null;
  for (let e = h2 && h2.nextElementSibling; e && e.tagName !== 'H2' && !svg; e = e.nextElementSibling)
    svg = e.tagName.toLowerCase() === 'svg' ? e : e.querySelector('svg');
  if (svg) {
    out.svg = box(svg);
    out.svgVisible = visible(svg);
    const shapes = [...svg.querySelectorAll('polygon,path,rect,ellipse,circle,polyline,line')]
      .filter(s => { const b = s.getBBox(); return (b.width > 0 || b.height > 0) && visible(s); });
    out.shapes = shapes.length;
    const texts = [...svg.querySelectorAll('text')]
      .filter(t => t.textContent.trim() && visible(t)).map(t => Object.assign(box(t), {s: t.textContent.trim()}))
      .filter(b => b.w > 0 && b.h > 0);
    out.texts = texts;
  }
  const legend = document.querySelector('.legend');
  if (legend) {
    out.legend = box(legend);
    out.legendVisible = visible(legend);
    out.legendText = legend.innerText;
    out.swatches = legend.querySelectorAll('.swatch').length;
  }
  out.page = {w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight};
  const pre = document.createElement('pre');
  pre.id = 'tagproof-probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


class ChromiumError(Exception):
    pass


def chromium(exe, profile, args, env=None, timeout=40):
    # a profile of its own: the controls run side by side, each its own browser
    # --no-sandbox: ctest runs as root in CI containers, where Chromium's sandbox cannot start;
    # --disable-dev-shm-usage: a container's /dev/shm is often too small for it
    cmd = [exe, "--headless", "--user-data-dir=" + profile, "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=1", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions", "--mute-audio"] + args
    # Killed by a signal (a clean clone's suite saw SIGSEGV once in a control's
    # run, the page and its other runs fine): the browser's crash, not the
    # page's, so it is said and run once more; a second crash is a failure.
    for attempt in (1, 2):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            raise ChromiumError(f"headless Chromium did not finish in {timeout} s: {' '.join(cmd)}")
        if r.returncode >= 0 or attempt == 2:
            return r
        print(f"note: headless Chromium died of signal {-r.returncode}; running it once more", flush=True)


def read_png(path):
    """(width, height, rows): rows of RGB(A) bytes, 8-bit truecolour only."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ft == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev))
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def ink(png, b):
    """Pixel counts in box b (page coordinates = screenshot coordinates):
    total, not white background, dark (text, borders), coloured (tag fills)."""
    w, h, bpp, rows = png
    x0, y0 = max(0, int(b["x"])), max(0, int(b["y"]))
    x1, y1 = min(w, int(b["x"] + b["w"] + 0.999)), min(h, int(b["y"] + b["h"] + 0.999))
    total = nonbg = dark = coloured = 0
    for y in range(y0, y1):
        row = rows[y]
        for x in range(x0, x1):
            r, g, bl = row[x * bpp], row[x * bpp + 1], row[x * bpp + 2]
            total += 1
            if r < 240 or g < 240 or bl < 240:
                nonbg += 1
            hi, lo = max(r, g, bl), min(r, g, bl)
            if hi < 110:
                dark += 1
            elif hi - lo > 12:
                coloured += 1
    return {"total": total, "nonbg": nonbg, "dark": dark, "coloured": coloured}


def check(exe, page_html, work, env=None, enough=None):
    """The failures (empty: the page passes) and a summary of what was seen;
    with `enough`, no screenshot once the layout alone fails with it (a control)."""
    os.makedirs(work, exist_ok=True)
    page = os.path.join(work, "page.html")
    probe = os.path.join(work, "probe.html")
    with open(page, "w") as f:
        f.write(page_html)
    with open(probe, "w") as f:
        at = page_html.rfind("</body>")
        f.write(page_html[:at] + PROBE + page_html[at:] if at >= 0 else page_html + PROBE)
    fails, seen = [], {}
    profile = os.path.join(work, "profile")
    r = chromium(exe, profile, [f"--window-size={WIDTH},1600", "--virtual-time-budget=5000", "--dump-dom",
                                "file://" + probe], env)
    m = re.search(r'<pre id="tagproof-probe">(.*?)</pre>', r.stdout, re.S)
    if not m:
        raise ChromiumError(f"headless Chromium gave no probe result (exit {r.returncode}):\n{r.stderr[-3000:]}")
    dom = json.loads(html.unescape(m.group(1)))
    seen["dom"] = {k: v for k, v in dom.items() if k not in ("texts", "legendText")}
    seen["dom"]["texts"] = len(dom.get("texts", []))
    if not dom.get("heading"):
        fails.append("no 'Tags over time' heading")
    svg = dom.get("svg")
    if not svg:
        fails.append("no SVG picture under 'Tags over time'")
    else:
        if svg["w"] < 50 or svg["h"] < 20:
            fails.append(f"the picture is laid out {svg['w']:.0f} x {svg['h']:.0f} px: not drawn")
        if not dom.get("svgVisible"):
            fails.append("the picture is hidden (display/visibility/opacity)")
        if dom.get("shapes", 0) < 3:
            fails.append(f"the picture has {dom.get('shapes', 0)} drawn shapes")
        if len(dom.get("texts", [])) < 3:
            fails.append(f"the picture has {len(dom.get('texts', []))} laid-out text elements")
    legend = dom.get("legend")
    if not legend:
        fails.append("no legend (.legend) on the page")
    else:
        if legend["w"] < 50 or legend["h"] < 20 or not dom.get("legendVisible"):
            fails.append("the legend is not visible")
        for want in ("Legend", "ptr", "mem", "match-all", "faults"):
            if want not in dom.get("legendText", ""):
                fails.append(f"the legend's visible text lacks '{want}'")
    if enough and any(enough in f for f in fails):
        return fails, seen
    # the screenshot: as tall as the page down to the legend, the page itself (no probe)
    bottom = max([b["y"] + b["h"] for b in (svg, legend) if b] + [800])
    height = min(int(bottom) + 40, 6000)
    shot = os.path.join(work, "page.png")
    if os.path.exists(shot):
        os.remove(shot)
    r = chromium(exe, profile, [f"--window-size={WIDTH},{height}", "--virtual-time-budget=5000", "--screenshot=" + shot,
                       "file://" + page], env)
    if r.returncode != 0 or not os.path.exists(shot):
        raise ChromiumError(f"headless Chromium could not screenshot the page (exit {r.returncode}):\n"
                            f"{r.stderr[-3000:]}")
    png = read_png(shot)
    seen["screenshot"] = f"{shot}: {png[0]} x {png[1]}"
    if png[0] != WIDTH or png[1] != height:
        fails.append(f"the screenshot is {png[0]} x {png[1]}, not the {WIDTH} x {height} viewport")
    if svg and svg["w"] > 0 and svg["h"] > 0:
        p = ink(png, svg)
        seen["picture pixels"] = p
        if p["total"] == 0:
            fails.append("the picture lies outside the screenshot")
        elif p["nonbg"] < 0.02 * p["total"] or p["dark"] < 200:
            fails.append(f"the picture's region of the screenshot is blank ({p['nonbg']} of {p['total']} pixels "
                         f"not background, {p['dark']} dark)")
        elif p["coloured"] < 100:
            fails.append(f"the picture shows no tag colours ({p['coloured']} coloured pixels)")
        texts = dom.get("texts", [])
        inked = sum(1 for t in texts if ink(png, t)["dark"] >= 3)
        seen["text elements with ink"] = f"{inked} of {len(texts)}"
        if texts and inked < 0.8 * len(texts):
            fails.append(f"only {inked} of the picture's {len(texts)} text elements are drawn (fonts missing?)")
    if legend and legend["w"] > 0 and legend["h"] > 0:
        p = ink(png, legend)
        seen["legend pixels"] = p
        if p["dark"] < 200 or p["coloured"] < 20:
            fails.append(f"the legend's region of the screenshot is blank ({p['dark']} dark, "
                         f"{p['coloured']} coloured pixels)")
    return fails, seen


def style(extra):
    return lambda s: s.replace("</style>", extra + "\n</style>", 1)


def no_fonts(work):
    """An environment where fontconfig finds no font: a system without a font package."""
    os.makedirs(work, exist_ok=True)
    conf = os.path.join(work, "no-fonts.conf")
    with open(conf, "w") as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                f'<fontconfig><cachedir>{work}/fc-cache</cachedir></fontconfig>\n')
    return dict(os.environ, FONTCONFIG_FILE=conf)


# the negative controls: the page broken on purpose (or the browser without
# fonts), and the check that must say so
CONTROLS = {
    "no-fonts": (None, "text elements"),
    "no-svg": (lambda s: re.sub(r'<div class="picture">.*?</svg>\s*</div>', "", s, flags=re.S),
               "no SVG picture"),
    "empty-svg": (lambda s: re.sub(r"(<svg\b[^>]*>).*?(</svg>)", r"\1\2", s, flags=re.S), "drawn shapes"),
    "hidden-svg": (style(".picture{visibility:hidden}"), "the picture is hidden"),
    "white-svg": (style(".picture svg *{fill:#fff !important;stroke:#fff !important}"), "is blank"),
    "no-text": (style(".picture svg text{fill:transparent !important}"), "text elements are drawn"),
    "no-legend": (lambda s: re.sub(r'<div class="legend".*?</div>', "", s, flags=re.S), "no legend"),
    "hidden-legend": (style(".legend{display:none}"), "the legend is not visible"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--page", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--controls", action="store_true")
    a = ap.parse_args()
    with open(a.page) as f:
        page = f.read()
    shutil.rmtree(a.work, ignore_errors=True)
    try:
        return run(a, page)
    except ChromiumError as e:
        print(f"FAIL: {e}")
        return 2


def run(a, page):
    fails, seen = check(a.chromium, page, os.path.join(a.work, "page"))
    print("seen: " + json.dumps(seen, indent=1))
    for f in fails:
        print("FAIL: " + f)
    if fails:
        return 1
    print(f"PASS: {a.page} in headless Chromium: picture drawn, text inked, legend visible")
    if not a.controls:
        return 0
    missed, runs = [], {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        for name, (mutate, want) in CONTROLS.items():  # each its own browser, side by side
            work = os.path.join(a.work, name)
            if mutate is None:
                runs[name] = pool.submit(check, a.chromium, page, work, no_fonts(work), want)
                continue
            broken = mutate(page)
            if broken == page:
                missed.append(f"{name}: the mutation did not apply to the page")
                continue
            runs[name] = pool.submit(check, a.chromium, broken, work, None, want)
    for name, run_ in runs.items():
        cfails, _ = run_.result()
        caught = [f for f in cfails if CONTROLS[name][1] in f]
        print(f"control {name}: " + (f"caught: {caught[0]}" if caught else f"MISSED ({cfails})"))
        if not caught:
            missed.append(name)
    for m in missed:
        print("FAIL: negative control not caught: " + m)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The table of scripts/peers.sh: each peer's figure beside simtbench's for
the same quantity, measured in the same call, with the ratio and what the
outputs themselves say of why they differ.

    peers-table.py OUTDIR

Reads OUTDIR/peers.env, run-*.txt (the peers' outputs, parsed in the
formats their sources print), simtbench-*.json and the chases' PTX;
writes OUTDIR/peers.md and prints it.  A figure a run did not give is
"-", with the reason in its row.  Plateaus are found by simtbench's rule
(common/plateau.c): a run is a stretch of points within 1.10x of each
other, a run of one point is a transition, runs within 1.25x of each other
merge.  A level is compared over the sizes both curves have points in.
"""
import json
import os
import re
import sys

JUMP, MERGE = 1.10, 1.25
SAME_SIZE = 1.01
OUT = sys.argv[1]


def text(name):
    try:
        with open(os.path.join(OUT, name), errors="replace") as f:
            return f.read()
    except OSError:
        return None


def status(name):
    s = text("status-" + name)
    return None if s is None else s.strip()


def why_missing(name):
    """Why a peer's run gave no figure: not built, failed, or no output."""
    b = status("build-" + name.split("-double")[0].split("-float")[0])
    st = status(name)
    if st is None:
        return "%s did not run%s" % (name, " (its build failed)" if b not in (None, "0") else "")
    return "%s: status %s, no figure in its output" % (name, st)


ENV = dict(l.split("=", 1) for l in (text("peers.env") or "").splitlines() if "=" in l)


# ---- plateaus ---------------------------------------------------------------
def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def apart(a, b, by):
    return not (a > 0 and b > 0) or b / a > by or a / b > by


def plateaus(xs, ys):
    """[(x_from, x_to, level)] of the curve, simtbench's rule: a run is a
    stretch whose points all lie within JUMP of each other."""
    runs, start = [], 0
    while start < len(ys):
        lo = hi = ys[start]
        end = start + 1
        while ys[start] > 0 and end < len(ys) and ys[end] > 0:
            if max(hi, ys[end]) / min(lo, ys[end]) > JUMP:
                break
            lo, hi = min(lo, ys[end]), max(hi, ys[end])
            end += 1
        if end - start >= 2:
            runs.append([start, end - 1])
        start = end
    out = []
    for r in runs:
        if out and not apart(median(ys[out[-1][0]:out[-1][1] + 1]),
                             median(ys[r[0]:r[1] + 1]), MERGE):
            out[-1][1] = r[1]
        else:
            out.append(r)
    return [(xs[a], xs[b], median(ys[a:b + 1])) for a, b in out]


def on_common_range(ours, theirs, a, b):
    """Plateaus a (of the points ours, [(x, y)]) and b (of theirs) over the
    sizes both cover: (our median, their median, from, to), or the whole
    plateaus' levels and None for the range where either has no point
    there.  Sizes within SAME_SIZE of each other are the same size (the
    peers round theirs to 32 elements)."""
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    o = [y for x, y in ours if lo / SAME_SIZE <= x <= hi * SAME_SIZE]
    t = [y for x, y in theirs if lo / SAME_SIZE <= x <= hi * SAME_SIZE]
    if o and t:
        return median(o), median(t), lo, hi
    return a[2], b[2], None, None


def named_levels(levels):
    """L1, L2 near, L2 far, DRAM by place (a curve past the L2)."""
    names = {}
    if len(levels) >= 2:
        names["L1"] = levels[0]
        names["DRAM"] = levels[-1]
    middle = levels[1:-1]
    if middle:
        names["L2 near"] = middle[0]
    if len(middle) >= 2:
        names["L2 far"] = middle[1]
    return names


def size(b):
    for unit, n in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n:
            return "%g %s" % (round(b / n, 1), unit)
    return "%d B" % b


def span(level):
    return "%s-%s" % (size(level[0]), size(level[1]))


# ---- simtbench --------------------------------------------------------------
def simtbench_rows():
    rows = []
    for name in ("simtbench-launch.json", "simtbench-launch_small.json",
                 "simtbench-launch_large.json", "simtbench-compute.json",
                 "simtbench-memory.json"):
        t = text(name)
        if not t:
            continue
        try:
            d = json.loads(t)
        except ValueError:
            continue
        for r in d.get("results", []):
            dev = d["devices"][r["device"]] if r.get("device") is not None else {}
            r["clock_mhz"] = dev.get("clock_mhz") or 0
            r["l2_bytes"] = dev.get("l2_bytes") or 0
            rows.append(r)
    return rows


SB = simtbench_rows()
L2_BYTES = next((r.get("l2_bytes") for r in SB if r.get("l2_bytes")), 0)


def sb(exp, variant, backend):
    for r in SB:
        if r["experiment"] == exp and r["variant"] == variant and r["backend"] == backend:
            return r
    return None


def figure(r, name):
    for f in r.get("figures", []):
        if f["name"] == name:
            return f["value"]
    return None


def sb_sweep(exp, backend):
    pts = []
    for r in SB:
        if r["experiment"] == exp and r["backend"] == backend and r.get("verified"):
            ws = figure(r, "working_set")
            if ws:
                pts.append((ws, r["value"], r))
    pts.sort(key=lambda p: p[0])
    return pts


# ---- the table --------------------------------------------------------------
ROWS = []


def row(quantity, ours, peer, why, unit="", digits=0):
    def show(v):
        return "-" if v is None else ("%.*f %s" % (digits, v, unit)).strip()
    ratio = "%.3f" % (ours / peer) if ours and peer else "-"
    ROWS.append((quantity, show(ours), show(peer), ratio, why))


def babelstream_copy(name):
    """BabelStream's Copy row of a --csv run: (GB/s at its fastest time,
    GB/s at its mean, n, sizeof)."""
    t = text("run-%s.txt" % name) or ""
    lines = t.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("function,")), None)
    if head is None:
        return None
    cols = lines[head].split(",")
    for l in lines[head + 1:]:
        f = l.split(",")
        if len(f) == len(cols) and f[0] == "Copy":
            v = dict(zip(cols, f))
            n, size_of = int(v["n_elements"]), int(v["sizeof"])
            bytes_ = 2.0 * size_of * n
            return (bytes_ / float(v["min_runtime"]) / 1e9,
                    bytes_ / float(v["avg_runtime"]) / 1e9, n, size_of)
    return None


def sb_copy(exp, variant, backend):
    """simtbench's copy row: (host-observed GB/s at the fastest launch,
    device-event GB/s at the median, the row)."""
    r = sb(exp, variant, backend)
    if not r or not r.get("verified") or not r.get("host_observed_ms"):
        return None
    return (r["bytes"] / (r["host_observed_ms"]["min"] * 1e-3) / 1e9,
            r["bytes"] / (r["time_ms"]["median"] * 1e-3) / 1e9, r)


def gbs(v):
    return "%.0f GB/s" % v


def entry_counts(t, entry_re):
    """(instructions, global loads, global stores) in the body of the first
    entry of PTX text t whose name matches entry_re, or None."""
    if not t:
        return None
    body = re.split(entry_re, t)
    if len(body) < 2:
        return None
    body = body[1].split("\n}")[0]
    ins = [l.strip() for l in body.splitlines()
           if re.match(r"^\s*[a-z@]", l) and not l.strip().startswith(".")]
    return (len(ins), sum(1 for i in ins if i.startswith("ld.global")),
            sum(1 for i in ins if i.startswith("st.global")))


def copy_ptx(exp, variant, backend, element_bytes):
    """The PTX of both copies, counted: 'simtbench N instructions (L global
    loads, S stores), BabelStream ...', or None where either is missing."""
    ours = entry_counts(text("ptx/%s.%s.%s.ptx" % (exp, variant, backend)), r"\.entry stream_copy\b")
    t = "f" if element_bytes == 4 else "d"
    theirs = entry_counts(text("copy-babelstream.ptx"),
                          r"\.entry _Z15for_each_kernelIZN10CUDAStreamI%sE4copyEv\S*" % t)
    if not ours or not theirs:
        return None
    return "PTX of the copies: simtbench %d instructions (%d global loads, %d stores), " \
        "BabelStream's %d (%d, %d)" % (ours + theirs)


def copy_rows():
    cases = [("cuda-double", "launch_small", "copy", "cuda", "2^25 doubles"),
             ("cuda-float", "launch_small", "copy_float", "cuda", "2^25 floats"),
             ("cuda-double-1g", "launch_large", "copy", "cuda", "1 GiB of doubles"),
             ("cuda-float-1g", "launch_large", "copy_float", "cuda", "1 GiB of floats"),
             ("ocl-double", "launch_small", "copy", "opencl", "2^25 doubles"),
             ("ocl-float", "launch_small", "copy_float", "opencl", "2^25 floats")]
    for peer, exp, variant, backend, what in cases:
        theirs, ours = babelstream_copy("babelstream-" + peer), sb_copy(exp, variant, backend)
        alone = babelstream_copy("babelstream-%s-only" % peer)
        for only in ((False, True) if alone else (False,)):
            t = alone if only else theirs
            quantity = "copy GB/s, %s, %s (BabelStream %s%s)" % (
                what, backend, peer, " --only Copy" if only else "")
            if not t or not ours:
                why = why_missing("babelstream-" + peer) if not t else \
                    "simtbench's %s/%s on %s gave no verified row" % (exp, variant, backend)
                row(quantity, ours and ours[0], t and t[0], why, "GB/s")
                continue
            r = ours[2]
            eb = figure(r, "element_bytes") or 4
            why = ("both the fastest host-timed launch of the same kernel (grid %d x %d, "
                   "n = %d, %d-byte elements; BabelStream's n = %d, sizeof %d), of %d "
                   "launches and %s, and bytes 2 x sizeof x n; simtbench's device-event "
                   "median %s, BabelStream's mean %s" % (
                       r["grid"][0], r["block"][0], r["bytes"] / 2 / eb, eb, t[2], t[3],
                       r.get("reps", 0), "its Copy alone, each launch after a copy as "
                       "simtbench's are" if only else "its default order", gbs(ours[1]),
                       gbs(t[1])))
            why += ("; inputs: BabelStream's a holds 0.1 everywhere (its init_arrays), "
                    "simtbench's random words")
            ptx = copy_ptx(exp, variant, backend, eb) if backend == "cuda" else None
            if ptx:
                why += "; " + ptx
            if not only and alone:
                why += ("; its default runs Copy after Dot's read-only pass, alone (--only "
                        "Copy) it gives %s: its order is worth %.3fx" % (gbs(alone[0]),
                                                                         theirs[0] / alone[0]))
            if backend == "opencl":
                why += ("; BabelStream's OpenCL model is another kernel than its CUDA one (one "
                        "element a work-item, restrict, the driver's work-group size), "
                        "simtbench runs the CUDA model's loop through both APIs")
            row(quantity, ours[0], t[0], why, "GB/s")
    order_rows()


def order_rows():
    """BabelStream's Copy in floats at several sizes, in its default order
    and alone: the measured worth of the order against the arrays' size."""
    for n in (16777216, 33554432, 67108864, 268435456):
        name = {33554432: "cuda-float", 268435456: "cuda-float-1g"}.get(n, "cuda-float-n%d" % n)
        classic, alone = babelstream_copy("babelstream-" + name), \
            babelstream_copy("babelstream-%s-only" % name)
        if not classic or not alone:
            continue
        row("BabelStream CUDA copy GB/s, %d floats (%s an array), default order" % (
            n, size(4 * n)), None, classic[0],
            "BabelStream beside itself: Copy alone (--only Copy) %s, so its default order "
            "(Copy after Dot's read-only pass, not after another copy) is worth %.3fx with "
            "arrays of %s against the device's %s L2" % (
                gbs(alone[0]), classic[0] / alone[0], size(4 * n), size(L2_BYTES) if L2_BYTES
                else "unknown"), "GB/s")


def gpu_latency_curve(name="gpu-latency"):
    """gpu-latency's lines: iters clock kB ms cycles -> (bytes, cycles, clock)."""
    pts = []
    for l in (text("run-%s.txt" % name) or "").splitlines():
        f = l.split()
        if len(f) == 5 and all(re.match(r"^[\d.]+$", x) for x in f):
            pts.append((float(f[2]) * 1024, float(f[4]), float(f[1])))
    return pts


def chase_ptx(name, entry_re):
    """Instructions per load in the chase's unrolled loop of a PTX file, and
    the load's opcode."""
    t = text(name)
    if not t:
        return None
    body = re.split(entry_re, t)
    if len(body) < 2:
        return None
    body = body[1].split("\n}")[0]
    blocks = re.split(r"\n\$L__BB\d+_\d+:", body)
    best = None
    for b in blocks:
        ins = [l.strip() for l in b.splitlines()
               if l.strip() and not l.strip().startswith(("//", "{", "}", "."))]
        loads = [i for i in ins if re.match(r"ld\.(global\.)?(ca\.)?[us]64\s", i)]
        if len(loads) >= 8 and (best is None or len(loads) > best[1]):
            best = (len(ins), len(loads), loads[0].split()[0])
    if not best:
        return None
    return best[0] / best[1], best[2]


def compared(name, ours, theirs, a, b):
    """The figures of levels a and b over the sizes both cover, and the
    clause saying which sizes those were."""
    oa, tb, lo, hi = on_common_range(ours, theirs, a, b)
    if lo is None:
        return oa, tb, "the plateaus share no size with a point of each: whole plateaus"
    return oa, tb, "both over %s-%s, the sizes both %s plateaus cover" % (size(lo), size(hi), name)


def latency_rows():
    ours = sb_sweep("latency", "cuda")
    theirs = gpu_latency_curve()
    mhz = ours[0][2]["clock_mhz"] if ours else 0
    oc = [(p[0], p[1] * mhz * 1e-3) for p in ours]
    tc = [(p[0], p[1]) for p in theirs]
    o = named_levels(plateaus([p[0] for p in oc], [p[1] for p in oc]))
    t = named_levels(plateaus([p[0] for p in tc], [p[1] for p in tc]))
    po = chase_ptx("chase-simtbench.ptx", r"\.entry chase\b")
    pt = chase_ptx("chase-gpu-latency.ptx", r"\.entry \S*pchase\S*")
    code = "PTX of the chase loop: simtbench %s, gpu-latency %s" % (
        "%.1f instructions a load (%s)" % po if po else "not read",
        "%.1f instructions a load (%s)" % pt if pt else "not read")
    clock = theirs[0][2] if theirs else None
    for name in ("L1", "L2 near", "L2 far", "DRAM"):
        a, b = o.get(name), t.get(name)
        ours_v, theirs_v = a and a[2], b and b[2]
        where = ""
        if a and b:
            ours_v, theirs_v, where = compared(name, oc, tc, a, b)
            where = "; " + where
        why = "%s; plateaus: simtbench %s, gpu-latency %s%s; cycles at %s MHz (ours, the " \
              "device's clock) and %s MHz (gpu-latency's measured clock)" % (
                  code, span(a) if a else "none", span(b) if b else "none", where,
                  mhz or "?", "%g" % clock if clock else "?")
        if a and b:
            why += diagnostics(name, oc, a)
        if not ours or not theirs:
            why = "no simtbench latency rows" if not ours else why_missing("gpu-latency")
        row("%s latency, cycles (gpu-latency)" % name, ours_v, theirs_v, why, "cycles", 1)


def diagnostics(name, oc, a):
    """gpu-latency changed one thing at a time (peers-build.sh's variants),
    each at the level a over the sizes it shares with ours: what each thing
    is worth, measured."""
    said = ""
    for v, what in (("1warp", "with one warp (32 threads, not 64)"),
                    ("global", "with ld.global.ca loads (__ldca), not generic ones")):
        curve = [(p[0], p[1]) for p in gpu_latency_curve("gpu-latency-" + v)]
        lv = named_levels(plateaus([p[0] for p in curve], [p[1] for p in curve])).get(name)
        if not lv:
            continue
        o, t, lo, _ = on_common_range(oc, curve, a, lv)
        ptx = chase_ptx("chase-gpu-latency-%s.ptx" % v, r"\.entry \S*pchase\S*")
        said += "; gpu-latency %s: %.1f cycles%s%s" % (
            what, t, "" if lo is not None else " (whole plateaus)",
            " (PTX %.1f instructions a load, %s)" % ptx if ptx else "")
    return said


def gpu_benches_bw(name, pattern):
    """(bytes, the groups after the first...) of each line pattern matches."""
    pts = []
    for l in (text("run-%s.txt" % name) or "").splitlines():
        m = re.match(pattern, l)
        if m:
            pts.append((float(m.group(1)) * 1024,) + tuple(float(g) for g in m.groups()[1:]))
    return pts


def launch_fixed_us(pts):
    """The microseconds a launch costs besides its bytes: the intercept of a
    least-squares line of the rows' median times against their bytes
    (pts: [(x, y, row)] of one plateau), or None with fewer than 2 sizes."""
    tb = [(p[2]["bytes"], p[2]["time_ms"]["median"]) for p in pts
          if p[2].get("bytes") and p[2].get("time_ms")]
    if len(set(b for b, _ in tb)) < 2:
        return None
    n = float(len(tb))
    mb, mt = sum(b for b, _ in tb) / n, sum(t for _, t in tb) / n
    slope = sum((b - mb) * (t - mt) for b, t in tb) / sum((b - mb) ** 2 for b, _ in tb)
    return (mt - slope * mb) * 1e3


def within(pts, curve):
    """The points of pts at the sizes curve spans."""
    if not curve:
        return pts
    lo, hi = curve[0][0] / SAME_SIZE, curve[-1][0] * SAME_SIZE
    return [p for p in pts if lo <= p[0] <= hi]


def bandwidth_rows():
    l2 = gpu_benches_bw("gpu-l2-cache", r"^\s*[\d.]+ kB\s+([\d.]+) kB\s+([\d.]+)ms\s+[\d.]+%\s+([\d.]+) GB/s")
    ours_all = sb_sweep("dram_read_set", "cuda")
    ours = within(ours_all, l2)
    oc, tc = [(p[0], p[1]) for p in ours], [(p[0], p[2]) for p in l2]
    po = plateaus([p[0] for p in oc], [p[1] for p in oc])
    pt = plateaus([p[0] for p in tc], [p[1] for p in tc])
    dram_pts = [p for p in ours if po and po[-1][0] <= p[0] <= po[-1][1]]
    fixed = launch_fixed_us(dram_pts)
    per_launch = sorted(set(p[2]["bytes"] for p in ours if p[2].get("bytes")))
    their_ms = [p[1] for p in l2]
    for k, name in ((0, "L2"), (-1, "DRAM")):
        a = max(po[:-1], key=lambda p: p[2]) if k == 0 and len(po) > 1 else (po[k] if po else None)
        b = max(pt[:-1], key=lambda p: p[2]) if k == 0 and len(pt) > 1 else (pt[k] if pt else None)
        ov, tv, where = (a and a[2]), (b and b[2]), ""
        if a and b:
            ov, tv, where = compared(name, oc, tc, a, b)
            where = "; " + where
        why = ("read-only both, simtbench's curve taken over gpu-l2-cache's sizes: "
               "dram_read_set (xor of 16-byte loads) %s, gpu-l2-cache (double loads, 200000 "
               "blocks of 1024) %s%s" % (span(a) if a else "no plateau",
                                         span(b) if b else "no plateau", where))
        if per_launch:
            why += "; simtbench's launches read %s each" % "-".join(size(v) for v in (
                per_launch[0], per_launch[-1]) if v)
        if fixed is not None:
            why += (", and cost %.1f us a launch besides their bytes (the line of its DRAM "
                    "plateau's times against bytes)" % fixed)
        if their_ms:
            why += "; gpu-l2-cache's launches take %g-%g ms (its own column)" % (
                min(their_ms), max(their_ms))
        if os.path.exists(os.path.join(OUT, "note-l2-cache-no-metrics")):
            why += "; gpu-l2-cache built without its CUPTI metrics (which it prints as 0)"
        if not l2:
            why = why_missing("gpu-l2-cache")
        row("%s read bandwidth plateau, GB/s (gpu-l2-cache)" % name, ov, tv, why, "GB/s")
    cache = gpu_benches_bw("gpu-cache", r"^\s*([\d.]+) kB\s+[\d.]+ms\s+[\d.]+%\s+([\d.]+) GB/s")
    pc = plateaus([p[0] for p in cache], [p[1] for p in cache])
    row("L1 bandwidth of one block a SM, GB/s (gpu-cache)", None, pc[0][2] if pc else None,
        ("simtbench has no per-SM L1 bandwidth experiment; gpu-cache's first plateau %s"
         % span(pc[0])) if pc else why_missing("gpu-cache"), "GB/s")


def clpeak_max(section):
    t = text("run-clpeak.txt") or ""
    best, inside = None, False
    for l in t.splitlines():
        if l.strip().startswith(section):
            inside = True
            continue
        if inside:
            m = re.match(r"^\s*float\d*\s*:\s*([\d.]+)", l)
            if m:
                best = max(best or 0, float(m.group(1)))
            elif l.strip():
                inside = False
    return best


def mixbench_sp():
    best = None
    for l in (text("run-mixbench.txt") or "").splitlines():
        f = [x.strip() for x in l.split(",")]
        if len(f) >= 5 and re.match(r"^\d+$", f[0]):
            try:
                best = max(best or 0, float(f[3]))
            except ValueError:
                pass
    return best


def compute_rows():
    for backend in ("cuda", "opencl"):
        r = sb("compute", "fma_chains8", backend)
        ours = r["value"] if r and r.get("verified") else None
        cl = clpeak_max("Single-precision compute")
        row("FP32 FMA peak, GFLOP/s, %s (clpeak, OpenCL)" % backend, ours, cl,
            "simtbench: 8 independent FMA chains a thread; clpeak: its best vector width "
            "(float..float16) of mad chains" if cl else why_missing("clpeak"), "GFLOP/s")
    r = sb("compute", "fma_chains8", "cuda")
    mb = mixbench_sp()
    row("FP32 peak, GFLOP/s, cuda (mixbench-cuda)", r["value"] if r else None, mb,
        "mixbench: its best single-precision point of the intensity sweep (one launch each)"
        if mb else why_missing("mixbench"), "GFLOP/s")
    bw = clpeak_max("Global memory bandwidth")
    ours = sb_sweep("dram_read_set", "cuda")
    dram = plateaus([p[0] for p in ours], [p[1] for p in ours])
    row("DRAM read bandwidth, GB/s (clpeak, OpenCL)", dram[-1][2] if dram else None, bw,
        "simtbench: dram_read_set's DRAM plateau (CUDA); clpeak: its best vector width of "
        "reads" if bw else why_missing("clpeak"), "GB/s")


def main():
    copy_rows()
    latency_rows()
    bandwidth_rows()
    compute_rows()
    head = ["# simtbench beside its peers, same GPU, same call", "",
            "%s; %s; %s" % (ENV.get("date", "?"), ENV.get("gpu", "?"), ENV.get("simtbench", "?")),
            "peers: BabelStream %s, gpu-benches %s, clpeak %s, mixbench %s; built for %s" % (
                ENV.get("babelstream", "?")[:12], ENV.get("gpu_benches", "?")[:12],
                ENV.get("clpeak", "?")[:12], ENV.get("mixbench", "?")[:12],
                ENV.get("cuda_arch", "?")),
            "parameters: BabelStream --csv at its defaults (100 times, 2^25), --float, -s for 1 "
            "GiB a buffer, each also --only Copy, and floats at 2^24 and 2^26 both ways; "
            "simtbench's launch family --reps 100; gpu-latency (one block of 64 threads on one "
            "chain) with its sizes x%s a step, 200000 loads a point, to 2^%s links of 64 bytes, "
            "and its variants with one warp and with ld.global.ca loads to 2^21 links; "
            "gpu-l2-cache and gpu-cache as they are, stopped by time; clpeak "
            "--single-precision-compute --global-memory-bandwidth; mixbench-cuda as it is"
            % (ENV.get("latency_growth", "?"), ENV.get("latency_top_log2", "?")), "",
            "| quantity | simtbench | peer | ratio | why they differ |",
            "| --- | ---: | ---: | ---: | --- |"]
    lines = head + ["| %s | %s | %s | %s | %s |" % r for r in ROWS]
    md = "\n".join(lines) + "\n"
    with open(os.path.join(OUT, "peers.md"), "w") as f:
        f.write(md)
    sys.stdout.write(md)


main()

#!/usr/bin/env python3
"""The table of scripts/peers.sh: each peer's figure beside simtbench's for
the same quantity, measured in the same call, with the ratio and what the
outputs themselves say of why they differ.

    peers-table.py OUTDIR

Reads OUTDIR/peers.env, run-*.txt (the peers' outputs, parsed in the
formats their sources print), simtbench-*.json and the chases' PTX;
writes OUTDIR/peers.md and prints it.  A figure a run did not give is
"-", with the reason in its row.  Plateaus are found by simtbench's rule
(common/plateau.c): a run of points ends at a jump of more than 1.25x, a
run of one point is a transition, runs within 1.25x of each other merge.
"""
import json
import os
import re
import sys

JUMP = MERGE = 1.25
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
    """[(x_from, x_to, level)] of the curve, simtbench's rule."""
    runs, start = [], 0
    for i in range(1, len(ys) + 1):
        if i < len(ys) and not apart(ys[i - 1], ys[i], JUMP):
            continue
        if i - start >= 2:
            runs.append([start, i - 1])
        start = i
    out = []
    for r in runs:
        if out and not apart(median(ys[out[-1][0]:out[-1][1] + 1]),
                             median(ys[r[0]:r[1] + 1]), MERGE):
            out[-1][1] = r[1]
        else:
            out.append(r)
    return [(xs[a], xs[b], median(ys[a:b + 1])) for a, b in out]


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
    for name in ("simtbench-launch.json", "simtbench-memory.json"):
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
            rows.append(r)
    return rows


SB = simtbench_rows()


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


def copy_rows():
    cases = [("cuda-double", "launch_small", "copy", "cuda", "2^25 doubles"),
             ("cuda-float", "launch_small", "copy_float", "cuda", "2^25 floats"),
             ("cuda-double-1g", "launch_large", "copy", "cuda", "1 GiB of doubles"),
             ("cuda-float-1g", "launch_large", "copy_float", "cuda", "1 GiB of floats"),
             ("ocl-double", "launch_small", "copy", "opencl", "2^25 doubles"),
             ("ocl-float", "launch_small", "copy_float", "opencl", "2^25 floats")]
    for peer, exp, variant, backend, what in cases:
        quantity = "copy GB/s, %s, %s (BabelStream %s)" % (what, backend, peer)
        theirs, ours = babelstream_copy("babelstream-" + peer), sb_copy(exp, variant, backend)
        if not theirs or not ours:
            why = why_missing("babelstream-" + peer) if not theirs else \
                "simtbench's %s/%s on %s gave no verified row" % (exp, variant, backend)
            row(quantity, ours and ours[0], theirs and theirs[0], why, "GB/s")
            continue
        r = ours[2]
        eb = figure(r, "element_bytes") or 4
        why = ("both the fastest host-timed launch of the same kernel (grid %d x %d, "
               "n = %d, %d-byte elements; BabelStream's n = %d, sizeof %d) and bytes "
               "2 x sizeof x n; simtbench's device-event median %.0f GB/s, BabelStream's "
               "mean %.0f GB/s" % (r["grid"][0], r["block"][0], r["bytes"] / 2 / eb, eb,
                                    theirs[2], theirs[3], ours[1], theirs[1]))
        if backend == "opencl":
            why += ("; BabelStream's OpenCL model is another kernel than its CUDA one (one "
                    "element a work-item, restrict, the driver's work-group size), simtbench "
                    "runs the CUDA model's loop through both APIs")
        row(quantity, ours[0], theirs[0], why, "GB/s")


def gpu_latency_curve():
    """gpu-latency's lines: iters clock kB ms cycles -> (bytes, cycles, clock)."""
    pts = []
    for l in (text("run-gpu-latency.txt") or "").splitlines():
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
        loads = [i for i in ins if re.match(r"ld\.(global\.)?(ca\.)?u64\s", i) or
                 re.match(r"ld\.global\.ca\.u64", i)]
        if len(loads) >= 8 and (best is None or len(loads) > best[1]):
            best = (len(ins), len(loads), loads[0].split()[0])
    if not best:
        return None
    return best[0] / best[1], best[2]


def latency_rows():
    ours = sb_sweep("latency", "cuda")
    theirs = gpu_latency_curve()
    mhz = ours[0][2]["clock_mhz"] if ours else 0
    o = named_levels(plateaus([p[0] for p in ours], [p[1] * mhz * 1e-3 for p in ours]))
    t = named_levels(plateaus([p[0] for p in theirs], [p[1] for p in theirs]))
    po = chase_ptx("chase-simtbench.ptx", r"\.entry chase\b")
    pt = chase_ptx("chase-gpu-latency.ptx", r"\.entry \S*pchase\S*")
    code = "PTX of the chase loop: simtbench %s, gpu-latency %s" % (
        "%.1f instructions a load (%s)" % po if po else "not read",
        "%.1f instructions a load (%s)" % pt if pt else "not read")
    clock = theirs[0][2] if theirs else None
    for name in ("L1", "L2 near", "L2 far", "DRAM"):
        a, b = o.get(name), t.get(name)
        why = "%s; plateaus: simtbench %s, gpu-latency %s; cycles at %s MHz (ours, the device's " \
              "clock) and %s MHz (gpu-latency's measured clock)" % (
                  code, span(a) if a else "none", span(b) if b else "none", mhz or "?",
                  "%g" % clock if clock else "?")
        if not ours or not theirs:
            why = "no simtbench latency rows" if not ours else why_missing("gpu-latency")
        row("%s latency, cycles (gpu-latency)" % name, a and a[2], b and b[2], why, "cycles", 1)


def gpu_benches_bw(name, pattern):
    pts = []
    for l in (text("run-%s.txt" % name) or "").splitlines():
        m = re.match(pattern, l)
        if m:
            pts.append((float(m.group(1)) * 1024, float(m.group(2))))
    return pts


def bandwidth_rows():
    l2 = gpu_benches_bw("gpu-l2-cache", r"^\s*[\d.]+ kB\s+([\d.]+) kB\s+[\d.]+ms\s+[\d.]+%\s+([\d.]+) GB/s")
    ours = sb_sweep("dram_read_set", "cuda")
    po = plateaus([p[0] for p in ours], [p[1] for p in ours])
    pt = plateaus([p[0] for p in l2], [p[1] for p in l2])
    for k, name in ((0, "L2"), (-1, "DRAM")):
        a = max(po[:-1], key=lambda p: p[2]) if k == 0 and len(po) > 1 else (po[k] if po else None)
        b = max(pt[:-1], key=lambda p: p[2]) if k == 0 and len(pt) > 1 else (pt[k] if pt else None)
        why = ("read-only both: simtbench's dram_read_set (xor of 16-byte loads, a grid of 2^21 "
               "threads) over %s, gpu-l2-cache (double loads, 200000 blocks of 1024) over %s"
               % (span(a) if a else "no plateau", span(b) if b else "no plateau"))
        if os.path.exists(os.path.join(OUT, "note-l2-cache-no-metrics")):
            why += "; gpu-l2-cache built without its CUPTI metrics (which it prints as 0)"
        if not l2:
            why = why_missing("gpu-l2-cache")
        row("%s read bandwidth plateau, GB/s (gpu-l2-cache)" % name, a and a[2], b and b[2],
            why, "GB/s")
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
            "GiB a buffer; gpu-latency's sizes x%s a step, 200000 loads a point, to 128 MiB; "
            "gpu-l2-cache and gpu-cache as they are, stopped by time; clpeak "
            "--single-precision-compute --global-memory-bandwidth; mixbench-cuda as it is"
            % ENV.get("latency_growth", "?"), "",
            "| quantity | simtbench | peer | ratio | why they differ |",
            "| --- | ---: | ---: | ---: | --- |"]
    lines = head + ["| %s | %s | %s | %s | %s |" % r for r in ROWS]
    md = "\n".join(lines) + "\n"
    with open(os.path.join(OUT, "peers.md"), "w") as f:
        f.write(md)
    sys.stdout.write(md)


main()

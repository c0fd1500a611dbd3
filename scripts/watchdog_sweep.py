#!/usr/bin/env python3
"""Large-kernel conv layers for the watchdog campaign of issue 41 (docs/RANDOM.md "Watchdog").

Writes N legal conv layers (each checked by `dlacosim validate`; a draw that does not fit CBUF is
drawn again) and a suite of them: kernels of 12..32 rows and columns, 32..192 channels, strides
1..3, the input a little larger than the kernel, so a stripe computes up to 32 positions x R x S
x channel blocks atomic operations (fewer positions if the output has fewer) with no port moving -- often more than the 20000 quiet cycles
that stopped such layers before the watchdog counted the convolution's own handshakes. Prints
how many exceed that estimate. Seeded: the same layers every time.

usage: watchdog_sweep.py DLACOSIM OUT_DIR N [--config nv_full] [--seed 41]
then:  dlacosim regress OUT_DIR/suite.json -j 1 --mem-latency 64:256 --mem-bandwidth 2
"""
import argparse
import json
import os
import random
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("dlacosim")
ap.add_argument("out")
ap.add_argument("n", type=int)
ap.add_argument("--config", default="nv_full")
ap.add_argument("--seed", type=int, default=41)
a = ap.parse_args()

# CSC's positions per stripe and atomic channels (golden::HwConfig stripe_upper, atomic_c)
stripe, atomic_c = {"nv_small": (16, 8), "nv_large": (32, 32), "nv_full": (32, 64)}[a.config]
rng = random.Random(a.seed)
os.makedirs(a.out, exist_ok=True)
names, drawn, over = [], 0, 0
while len(names) < a.n and drawn < 50 * a.n:
    drawn += 1
    r, s = rng.randint(12, 32), rng.randint(12, 32)
    sx, sy = rng.randint(1, 3), rng.randint(1, 3)
    c, k = rng.randint(32, 192), rng.randint(1, 16)
    layer = {
        "unit": "conv", "config": a.config, "seed": drawn, "precision": "int8",
        "description": f"watchdog_sweep.py seed {a.seed} draw {drawn}: a large kernel",
        "input": {"w": s + sx * rng.randint(3, 12), "h": r + sy * rng.randint(2, 6), "c": c,
                  "data": {"random": {"min": -8, "max": 8}}},
        "weights": {"k": k, "r": r, "s": s, "data": {"random": {"min": -8, "max": 8}}},
        "stride": {"x": sx, "y": sy},
        "clip": 10,
    }
    name = f"wd_{a.config}_s{a.seed}_{drawn:05}"
    path = os.path.join(a.out, name + ".json")
    with open(path, "w") as f:
        json.dump(layer, f, indent=1)
    if subprocess.run([a.dlacosim, "validate", path], capture_output=True).returncode != 0:
        os.remove(path)
        continue
    names.append(name + ".json")
    ow = (layer["input"]["w"] - s) // sx + 1
    oh = (layer["input"]["h"] - r) // sy + 1
    if min(stripe, ow * oh) * r * s * -(-c // atomic_c) > 20000:
        over += 1
with open(os.path.join(a.out, "suite.json"), "w") as f:
    json.dump({"name": f"watchdog_sweep_{a.config}_s{a.seed}", "layers": names}, f, indent=1)
print(f"{len(names)} legal layers of {drawn} drawn; {over} with a stripe estimated over 20000 quiet cycles "
      f"(min({stripe}, output positions) x R x S x channel blocks)")

"""
The transformers side of the render benchmark. Reads a job from stdin, prints timings as JSON:

  in:  {"templates": [{"name", "chat_template", "bos_token", "eos_token"}], "requests": {name: JSON text},
        "pairs": [[template name, request name]], "budget_ms": float}
  out: {"<template>\\t<request>": {"ms": ms per render of the prepared request, "fresh_ms": ms for
        json.loads of the request text plus the render, "sha1": of the prompt} | {"error": str}}

Normalisation (scripts/ref_normalize.py) happens outside the timed region: what is timed is
render_jinja_template, the call transformers makes on every apply_chat_template. The fresh figure adds
json.loads of the request text (what a server does per request) but not the normalisation, which a
transformers user would also have to do: it favours Python.
"""
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "scripts"))
from ref_render import prepare, render  # noqa: E402


def measure(fn, budget_ms):
    fn()  # warm-up (compiles and caches the template)
    times = []
    start = time.perf_counter()
    while len(times) < 8 or ((time.perf_counter() - start) * 1000 < budget_ms and len(times) < 2000):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return times[len(times) // 4]  # lower quartile, as bench/render-compare.mjs explains


def main():
    job = json.load(sys.stdin)
    templates = {t["name"]: t for t in job["templates"]}
    out = {}
    for tname, rname in job["pairs"]:
        t = templates[tname]
        key = f"{tname}\t{rname}"
        try:
            kwargs = prepare(t["chat_template"], t["bos_token"], t["eos_token"], {"request": json.loads(job["requests"][rname]), "options": {}})
            prompt = render(kwargs)
            text = job["requests"][rname]
            out[key] = {
                "ms": measure(lambda: render(kwargs), job["budget_ms"]),
                "fresh_ms": measure(lambda: (json.loads(text), render(kwargs)), job["budget_ms"]),
                "sha1": hashlib.sha1(prompt.encode()).hexdigest(),
            }
        except Exception as e:  # the template rejects this request: no timing
            out[key] = {"error": f"{type(e).__name__}: {e}"}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

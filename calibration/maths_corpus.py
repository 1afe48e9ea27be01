"""Count the maths soundness corpus's verdicts on its true identities, for calibrate's `--counts`.

    uv run python calibration/maths_corpus.py > calibration/maths-corpus.json

Each true identity of tests/checks/maths/corpus is decided as run_checks decides it (`corpus.verdict`):
rederive-maths, and rederive-maths-numeric when that errs. A true identity's pass or failure is an
observation of each type's sensitivity (P(pass | the step holds)). Only the true identities are counted: a
one-symbol mutant measures how a wrong step fails, while a derivation node is also false when an equation it
rests on is wrong and its own step is right, which only the labelled runs measure (docs/calibration.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "checks" / "maths" / "corpus"))

import corpus  # noqa: E402

from cgx_checks.maths.caller.decider import SymbolicDecider  # noqa: E402


def main() -> int:
    identities = corpus.load_true()
    counts = {name: {"passed": 0, "failed": 0} for name in ("rederive-maths", "rederive-maths-numeric")}
    with SymbolicDecider() as decider:
        for identity in identities:
            result, detail = corpus.verdict(identity, decider)
            if result not in ("passed", "failed"):
                continue
            deciding = "rederive-maths-numeric" if "rederive-maths-numeric:" in detail else "rederive-maths"
            counts[deciding][result] += 1
    source = f"the maths soundness corpus ({len(identities)} true identities, tests/checks/maths/corpus/true.txt)"
    document = {name: {"source": source, "on_true": found} for name, found in counts.items()}
    sys.stdout.write(json.dumps(document, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env bash
# The calls the agent made, in order, through the command line (the Pi way; MCP makes the same calls).
# They are recorded for the walkthrough; the run's own record of truth is run/calls.jsonl.
# Run from the repository root: bash examples/end-to-end/session.sh [RUN_DIR]
set -euo pipefail
M="anthropic-claude"   # the model id; this harness did not expose a more precise one
R="${1:-examples/end-to-end/run}"
E=examples/end-to-end
cgx() { credencegraph-extract "$@"; }

cgx tool start_run --args "{\"run\": \"$R\", \"paper\": \"$E/paper/paper.tex\", \"rubric\": \"$E/rubric.toml\",
  \"cited\": \"$E/paper/cited\", \"store_source\": true, \"model\": \"$M\", \"note\": \"the example of the walkthrough\"}"

# First pass: seven records are refused, each with a fix.
cgx tool classify --run "$R" --args - <<EOF
{"model": "$M", "note": "first pass over the chunks", "records": [
 {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-14"], "hedge": "We show"},
 {"node": "s-02", "type": "literature_claim"},
 {"node": "s-03", "type": "literature_claim"},
 {"node": "s-04", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-03"], "hedge": "shows"},
 {"node": "s-05", "type": "method", "form": {"kind": "procedure"}},
 {"node": "s-06", "type": "method", "form": {"kind": "procedure"}},
 {"node": "s-07", "type": "derivation", "form": {"equation": "eq:ratio"}, "rests_on": ["e-2"]},
 {"node": "s-08", "type": "derivation", "form": {"equation": "eq:square"}},
 {"node": "s-09", "type": "derivation"},
 {"node": "s-10", "type": "derivation"},
 {"node": "s-11", "type": "assumption"},
 {"node": "s-12", "type": "result", "form": {"value": 3600}, "rests_on": ["s-05"]},
 {"node": "s-13", "type": "result", "form": {"value": 90000}, "rests_on": ["s-05"]},
 {"node": "s-14", "type": "result", "form": {"value": 0.015}, "rests_on": ["s-07", "s-06"]},
 {"node": "s-15", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-14"], "hedge": "may"}
]}
EOF

# The refused records again, corrected as their fixes say.
cgx tool classify --run "$R" --args - <<EOF
{"model": "$M", "note": "the refused records, corrected as their fixes say", "records": [
 {"node": "s-01", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-14"], "hedge": "We show"},
 {"node": "s-04", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-03"], "hedge": "suggests"},
 {"node": "s-07", "type": "derivation", "form": {"equation": "eq:ratio"}},
 {"node": "s-08", "type": "derivation"},
 {"node": "s-12", "type": "result", "form": {"value": 3000}, "rests_on": ["s-05"]},
 {"node": "s-14", "type": "result", "form": {"value": 0.015}, "rests_on": ["s-07", "s-06"]},
 {"node": "s-15", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["s-14"], "hedge": "may"}
]}
EOF

cgx tool add_premises --run "$R" --args - <<EOF
{"model": "$M", "records": [
 {"conclusion": "s-01", "premises": [{"statement": "The noise is white and stationary over a run."},
   {"statement": "The two amplitude readings are taken exactly one period apart."}]},
 {"conclusion": "s-15", "premises": [{"statement": "The noise is white and stationary over a run."}, {"stated_at": "s-11"}]},
 {"conclusion": "s-14", "premises": [{"statement": "The reference damping rates the errors are measured against are exact."}]},
 {"conclusion": "s-07", "premises": [{"statement": "The envelope decays exponentially."}]}
]}
EOF

cgx tool run_checks --run "$R" --args - <<EOF
{"model": "$M", "note": "the numbers of the results section", "proposals": [
 {"type": "recompute-numbers", "target": "s-12", "cites": ["s-12"], "expression": "12 * 300", "result": "3000"},
 {"type": "recompute-numbers", "target": "s-13", "cites": ["s-13"], "expression": "1200 * 75", "result": "90000"},
 {"type": "recompute-numbers", "target": "s-14", "cites": ["s-14"], "expression": "1.5 / 100", "result": "1.5%"}
]}
EOF

cgx tool run_checks --run "$R" --args - <<EOF
{"model": "$M", "note": "the method's maths steps, encoded as the paper writes them", "proposals": [
 {"type": "rederive-maths", "target": "s-08", "equations": ["e-3"], "symbols": {"gamma": ["positive"], "T": ["positive"]},
  "lhs": "(1 + gamma*T)^2", "rhs": "1 + 2*gamma*T + gamma^2*T^2"},
 {"type": "rederive-maths", "target": "s-09", "equations": ["e-4"], "symbols": {"gamma": ["positive"], "T": ["positive"]},
  "lhs": "1/(1 - gamma*T)", "rhs": "1 + gamma*T + gamma^2*T^2"},
 {"type": "rederive-maths", "target": "s-10", "equations": ["e-5"], "symbols": {"omega": ["positive"], "T": ["positive"]},
  "lhs": "atan(omega*T) + atan(1/(omega*T))", "rhs": "pi/2"},
 {"type": "rederive-maths", "target": "s-07", "equations": ["e-2"],
  "symbols": {"A": ["positive"], "gamma": ["positive"], "t": ["real"], "T": ["positive"]},
  "lhs": "(A*exp(-gamma*t)) / (A*exp(-gamma*(t + T)))", "rhs": "exp(gamma*T)"}
]}
EOF

cgx tool judge_citation --run "$R" --args "{\"model\": \"$M\", \"node\": \"s-02\", \"entry\": \"r-1\", \"source\": \"smith2019.txt\",
  \"passage\": \"Damped oscillators describe many laboratory systems, from torsion pendula to superconducting resonators\",
  \"supports\": true}"
# A paraphrase is not in the source: an error check, which moves no credence and may be followed by another.
cgx tool judge_citation --run "$R" --args "{\"model\": \"$M\", \"node\": \"s-03\", \"entry\": \"r-2\", \"source\": \"jones2021.tex\",
  \"passage\": \"the logarithmic decrement is the standard way to measure damping\", \"supports\": true}"
cgx tool judge_citation --run "$R" --args "{\"model\": \"$M\", \"node\": \"s-03\", \"entry\": \"r-2\", \"source\": \"jones2021.tex\",
  \"passage\": \"is the classical way to measure the damping of an oscillator\", \"supports\": true,
  \"note\": \"the passage quoted as it reads in the copy\"}"

cgx tool finish_run --run "$R" --args "{\"model\": \"$M\"}"

"""Calibrating a rubric on labelled runs: each check type's sensitivity and false_pass, and each type's base,
fitted as beta posteriors from counts, and the credences scored before and after (docs/calibration.md).

- `labels`: a node's truth, from a key file naming the nodes that are false or from a person's reviews;
- `counts`: what the labelled runs observed: each check's result against its observed node's truth, each
  node's truth where everything it requires holds;
- `fit`: the counts as beta posteriors, the rubric's new values;
- `score`: a run's credences under a rubric (re-parameterised, reviews left out), Brier and log scores;
- `rubric_file`: the calibrated rubric written over the old one, comments and layout kept;
- `calibrate`: the whole command, in sample, leaving one run or one paper out, and on held-out runs.
"""

# Reference values of Cohen's kappa and its standard error for
# stats.CohensKappa (kappa_test.go), from statsmodels' cohens_kappa
# (Fleiss, Cohen and Everitt 1969 large-sample variance).
# Regenerate with: /usr/bin/python3 kappa.py > kappa.tsv
import numpy as np
from statsmodels.stats.inter_rater import cohens_kappa

tables = [
    [[20, 5], [10, 15]],
    [[926, 29], [298, 474]],
    [[50, 0], [0, 50]],
    [[40, 10], [10, 40]],
    [[1, 9], [9, 1]],
    [[300, 2], [7, 120]],
    [[12, 3, 1], [2, 15, 4], [0, 3, 20]],
    [[5, 5], [5, 5]],
]
print("table\tkappa\tse\tlow\thigh")
for t in tables:
    r = cohens_kappa(np.array(t))
    cells = ";".join(",".join(str(c) for c in row) for row in t)
    print(f"{cells}\t{r.kappa:.12g}\t{r.std_kappa:.12g}\t{r.kappa_low:.12g}\t{r.kappa_upp:.12g}")

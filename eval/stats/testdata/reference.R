# Reference values for eval/stats (samples.go), computed independently in R
# (R 4.2.2, Debian r-base-core) by brute force: every one of the 2^n sign
# assignments is listed with expand.grid, and pass@k / pass^k use choose().
# Regenerate with: Rscript reference.R > reference.tsv
signflip <- function(d) {
  d <- d[d != 0]
  if (length(d) == 0) return(1)
  obs <- abs(sum(d))
  signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), length(d))))
  sums <- abs(signs %*% abs(d))
  mean(sums >= obs - 1e-9)
}
vectors <- list(
  c(1, 2, 3, 4, 5),
  c(-1, 2, 3, 4, 5),
  c(5, -3, 2, 0, 1, 1),
  c(1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
  c(1, 1, 1, 1, 1, 1, 1, 1, 1, -1),
  c(3, -2, 4, 1, -1, 5, 2, 2, -3, 1, 4, 0, 2),
  c(5, 5, 4, -1, 3, 2, 2, 1, 1, 1, -2, 3, 5, 4, 1, 1),
  c(-5, -4, -3, -2, -1, 1, 2, 3, 4, 5),
  c(0, 0, 0),
  c(7)
)
# Per-case pass-rate pairs "passA/nA:passB/nB": the differences B − A are
# fractions; the brute force works on them directly (SignFlip on integers
# scaled by RateDifferences must agree).
rate_pairs <- list(
  c("0/5:5/5", "1/5:4/5", "2/5:5/5", "5/5:5/5", "4/5:3/5", "1/5:4/5"),
  c("1/3:2/3", "0/2:1/2", "3/5:1/5", "1/1:0/1", "2/3:3/3", "1/4:4/4", "0/5:2/5", "2/2:1/2"),
  c("5/5:4/5", "3/5:3/5", "2/5:5/5", "0/5:1/5", "4/5:5/5", "1/5:0/5", "3/5:4/5", "2/5:4/5", "5/5:5/5", "0/5:3/5", "1/5:2/5", "4/5:2/5")
)
frac <- function(s) { p <- as.numeric(strsplit(s, "/")[[1]]); p[1] / p[2] }
cat("# kind\targs\tvalue\n")
for (rp in rate_pairs) {
  d <- sapply(rp, function(x) { ab <- strsplit(x, ":")[[1]]; frac(ab[2]) - frac(ab[1]) })
  cat(sprintf("signflip-rates\t%s\t%.17g\n", paste(rp, collapse = ","), signflip(d)))
}
# McNemar's exact test is the binomial test of b against b + c at 1/2.
for (bc in list(c(10, 1), c(3, 12), c(0, 6), c(2, 19), c(7, 7), c(0, 1), c(40, 60), c(17, 2))) {
  cat(sprintf("mcnemar\t%d,%d\t%.17g\n", bc[1], bc[2], binom.test(bc[1], bc[1] + bc[2], 0.5)$p.value))
}
for (v in vectors) cat(sprintf("signflip\t%s\t%.17g\n", paste(v, collapse = ","), signflip(v)))
for (n in 1:6) for (c in 0:n) for (k in 1:n) {
  cat(sprintf("pass@k\t%d,%d,%d\t%.17g\n", n, c, k, 1 - choose(n - c, k) / choose(n, k)))
  cat(sprintf("pass^k\t%d,%d,%d\t%.17g\n", n, c, k, choose(c, k) / choose(n, k)))
}

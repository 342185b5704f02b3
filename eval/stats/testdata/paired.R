# Reference values for eval/stats on generated paired datasets, computed
# independently in R (R 4.2.2, Debian r-base-core 4.2.2.20221110-2).
# Regenerate with: Rscript paired.R > paired.tsv
#
# dataset  pairs "passA/nA:passB/nB,..."  then: sign-flip p (every one of the
#          2^n sign assignments listed with expand.grid), mean per-case
#          difference B − A, and Newcombe's paired interval with continuity
#          correction (method 11 of Newcombe 1998, Stat Med 17:2635, written
#          here from the paper's formulas; per-case rates as fractional
#          outcomes and Pearson's correlation in place of phi).
# holm/bh  a family of p-values and R's p.adjust of it.
# power    n, p10, p01: exact power of the two-sided exact McNemar test at
#          0.05 by enumerating every (b, c) with dmultinom and binom.test.
set.seed(20251125)
signflip <- function(d) {
  d <- d[abs(d) > 1e-12]
  if (length(d) == 0) return(1)
  obs <- abs(sum(d))
  signs <- as.matrix(expand.grid(rep(list(c(-1, 1)), length(d))))
  sums <- abs(signs %*% abs(d))
  mean(sums >= obs - 1e-9)
}
wilson_cc <- function(p, n) {
  z <- qnorm(0.975)
  lo <- (2*n*p + z^2 - 1 - z*sqrt(max(0, z^2 - 2 - 1/n + 4*p*(n*(1-p) + 1)))) / (2*(n + z^2))
  hi <- (2*n*p + z^2 + 1 + z*sqrt(max(0, z^2 + 2 - 1/n + 4*p*(n*(1-p) - 1)))) / (2*(n + z^2))
  if (p <= 0) lo <- 0
  if (p >= 1) hi <- 1
  c(max(0, lo), min(1, hi))
}
newcombe11 <- function(a, b) {
  n <- length(a)
  pa <- mean(a); pb <- mean(b)
  cv <- sum((a - pa) * (b - pb)); va <- sum((a - pa)^2); vb <- sum((b - pb)^2)
  phi <- 0
  if (va > 0 && vb > 0) phi <- if (cv > 0) max(cv - 0.5, 0) / sqrt(va * vb) else cv / sqrt(va * vb)
  wa <- wilson_cc(pa, n); wb <- wilson_cc(pb, n)
  d <- pb - pa
  delta <- sqrt(max(0, (pb - wb[1])^2 - 2*phi*(pb - wb[1])*(wa[2] - pa) + (wa[2] - pa)^2))
  eps <- sqrt(max(0, (wb[2] - pb)^2 - 2*phi*(wb[2] - pb)*(pa - wa[1]) + (pa - wa[1])^2))
  c(max(-1, d - delta), min(1, d + eps))
}
gen <- function(kind, n) {
  na <- nb <- rep(1, n)
  if (kind == "samples") { na <- nb <- rep(5, n) }
  if (kind == "unequal") { na <- sample(1:43, n, TRUE); nb <- sample(1:43, n, TRUE) }
  if (kind == "coprime") { # from 7 cases on, a common denominator beyond int64
    set <- c(7, 11, 13, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41, 43)
    counts <- if (2 * n >= length(set)) sample(c(set, sample(set, 2 * n - length(set), TRUE))) else sample(set, 2 * n, TRUE)
    na <- counts[1:n]; nb <- counts[(n + 1):(2 * n)]
  }
  if (kind == "ragged") { na <- sample(c(1, 2, 3, 5), n, TRUE); nb <- sample(c(1, 4, 5, 7), n, TRUE) }
  pr <- runif(n); shift <- runif(1, -0.4, 0.4)
  pa <- rbinom(n, na, pr); pb <- rbinom(n, nb, pmin(1, pmax(0, pr + shift)))
  if (kind == "allpass") { pa <- na; pb <- nb }
  if (kind == "allfail") { pa <- pb <- rep(0, n) }
  if (kind == "ties") { # every difference of the same size, half each way
    pa <- rep(c(1, 0), length.out = n); pb <- 1 - pa
  }
  list(pa = pa, na = na, pb = pb, nb = nb)
}
cat("# kind\targs\tvalues\n")
kinds <- c("binary", "samples", "unequal", "coprime", "ragged", "allpass", "allfail", "ties")
ps <- c()
for (i in 1:240) {
  kind <- kinds[(i - 1) %% length(kinds) + 1]
  n <- c(1, 1, 2, 3, 5, 6, 8, 10, 12, 14, 16)[(i - 1) %% 11 + 1]
  g <- gen(kind, n)
  a <- g$pa / g$na; b <- g$pb / g$nb
  p <- signflip(b - a)
  ci <- newcombe11(a, b)
  ps <- c(ps, p)
  cat(sprintf("dataset\t%s\t%.17g,%.17g,%.17g,%.17g\n",
    paste(sprintf("%d/%d:%d/%d", g$pa, g$na, g$pb, g$nb), collapse = ","), p, mean(b - a), ci[1], ci[2]))
}
# Families of 1 to 25 of those p-values.
start <- 1
for (m in c(1, 2, 3, 5, 8, 10, 13, 17, 20, 25, 4, 7, 9, 15, 24, 6, 11, 18, 12)) {
  f <- ps[start:(start + m - 1)]
  start <- start + m
  if (start + 25 > length(ps)) start <- 1
  cat(sprintf("holm\t%s\t%s\n", paste(sprintf("%.17g", f), collapse = ","), paste(sprintf("%.17g", p.adjust(f, "holm")), collapse = ",")))
  cat(sprintf("bh\t%s\t%s\n", paste(sprintf("%.17g", f), collapse = ","), paste(sprintf("%.17g", p.adjust(f, "BH")), collapse = ",")))
}
power <- function(n, p10, p01) {
  s <- 0
  for (b in 0:n) for (c in 0:(n - b)) {
    if (b + c == 0) next
    if (binom.test(b, b + c, 0.5)$p.value < 0.05) s <- s + dmultinom(c(b, c, n - b - c), prob = c(p10, p01, 1 - p10 - p01))
  }
  s
}
for (n in c(1, 5, 6, 10, 20, 30, 40)) for (pp in list(c(0.05, 0.2), c(0.1, 0.1), c(0, 0.3), c(0.02, 0.1), c(0.2, 0.45))) {
  cat(sprintf("power\t%d,%.17g,%.17g\t%.17g\n", n, pp[1], pp[2], power(n, pp[1], pp[2])))
}
# casesfor delta,psi: the n found by doubling then bisection (n reaches 80%
# power, n − 1 does not), and mde n,psi: the smallest change on a 0.001 grid
# reaching it, both on a vectorised exact power (pbinom for the McNemar
# p-value of every split, dbinom for the chance of each).
fastpower <- function(n, delta, psi) {
  psi <- min(max(psi, delta), 1); p10 <- (psi - delta) / 2; p01 <- (psi + delta) / 2
  q <- p01 / psi; s <- 0
  for (d in 1:n) {
    b <- 0:d
    pv <- pmin(1, 2 * pbinom(pmin(b, d - b), d, 0.5))
    s <- s + dbinom(d, n, psi) * sum(dbinom(b, d, q)[pv < 0.05])
  }
  s
}
casesfor <- function(delta, psi) {
  reach <- function(n) fastpower(n, delta, psi) >= 0.8
  hi <- 1
  while (!reach(hi)) hi <- 2 * hi
  lo <- hi %/% 2
  while (hi - lo > 1) { mid <- (lo + hi) %/% 2; if (reach(mid)) hi <- mid else lo <- mid }
  hi
}
mde <- function(n, psi) {
  if (fastpower(n, 1, psi) < 0.8) return(1)
  lo <- 0; hi <- 1000
  while (hi - lo > 1) { mid <- (lo + hi) %/% 2; if (fastpower(n, mid / 1000, psi) >= 0.8) hi <- mid else lo <- mid }
  hi / 1000
}
for (dp in list(c(0.05, 0.05), c(0.05, 0.1), c(0.05, 0.2), c(0.1, 0.2), c(0.2, 0.3), c(0.3, 0.5), c(0.5, 0.5), c(0.15, 0.4))) {
  cat(sprintf("casesfor\t%.17g,%.17g\t%d\n", dp[1], dp[2], casesfor(dp[1], dp[2])))
}
for (np in list(c(6, 0), c(10, 0.2), c(20, 0.1), c(68, 0.2), c(100, 0.3), c(340, 0.2), c(5, 0.5))) {
  cat(sprintf("mde\t%d,%.17g\t%.17g\n", np[1], np[2], mde(np[1], np[2])))
}
# tq df: qt(0.975, df), the Student t quantile of the per-run interval.
for (df in c(1:40, 50, 67, 100, 339, 1000)) cat(sprintf("tq\t%d\t%.17g\n", df, qt(0.975, df)))

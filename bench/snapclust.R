# snapclust (adegenet; Beugin et al. 2018) with its Ward start (pop.ini = "ward"), the accuracy
# suite's peer: Rscript bench/snapclust.R LIST — each line of LIST "TABLE<TAB>K<TAB>PLOIDY", a table
# holding one column per locus and one row per individual, a genotype as allele names joined by "/"
# (NA: missing). Prints per line of LIST the fit's seconds, then the individuals' groups on one line.
args <- commandArgs(trailingOnly = TRUE)
suppressMessages(library(adegenet))
jobs <- read.table(args[1], sep = "\t", header = FALSE, colClasses = c("character", "integer", "integer"))
for (j in seq_len(nrow(jobs))) {
  table <- read.table(jobs[j, 1], sep = "\t", header = TRUE, colClasses = "character", na.strings = "NA", check.names = FALSE)
  ploidy <- jobs[j, 3]
  x <- df2genind(table, sep = if (ploidy > 1) "/" else NULL, ploidy = ploidy)
  started <- proc.time()
  fit <- snapclust(x, k = jobs[j, 2], pop.ini = "ward")
  cat((proc.time() - started)[["elapsed"]], "\n")
  cat(as.integer(fit$group), "\n")
}

#!/usr/bin/env bash
# A Slurm array job: one shard of a suite per array task, then one merge job.
#   sbatch --array=0-7 scripts/cluster/slurm-regress.sh testvectors/suites/default.json
#   # after the array finishes (or: sbatch --dependency=afterany:<array job id> ...):
#   build/harness/dlacosim merge results/shard-*.json --name default --json results/merged.json \
#       --junit results/merged.xml
# Every shard writes its own JSON and JUnit; `merge` orders the results by suite entry and fails
# (exit 2) if shards overlap. Run from the repository root on a shared file system, with build/
# built once beforehand (bash scripts/build.sh --target dlacosim).
#SBATCH --job-name=dlacosim-regress
#SBATCH --cpus-per-task=2
#SBATCH --output=results/slurm-%A_%a.out
set -euo pipefail
suite=${1:?usage: sbatch --array=0-(N-1) slurm-regress.sh SUITE}
count=${SLURM_ARRAY_TASK_COUNT:?run as an array job (sbatch --array=0-(N-1))}
index=${SLURM_ARRAY_TASK_ID:?}
mkdir -p results
# The shard's exit code (1 mismatch, 2 bad input, 3 timeout) is kept for the merge; the job
# itself succeeds so that the merge step always runs.
build/harness/dlacosim regress "$suite" -j "${SLURM_CPUS_PER_TASK:-2}" --shard "$index/$count" \
  --json "results/shard-$index.json" --junit "results/shard-$index.xml" || echo "shard $index: exit $?"

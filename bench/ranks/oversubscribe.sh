# Sourced by bench/ranks/ scripts. `oversubscribe R` prints mpirun's --oversubscribe where R ranks
# outnumber this machine's cores, else nothing, as a user runs them (with it Open MPI yields the
# core whenever a rank waits; two ranks on two cores took the same time either way,
# docs/benchmarks.md, "The ranks replayed on a core each").
oversubscribe() { (($1 > $(nproc))) && echo --oversubscribe || true; }

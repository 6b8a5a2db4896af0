"""The benchmark suite (see benchmarks/README and ``cardlogic bench``)."""

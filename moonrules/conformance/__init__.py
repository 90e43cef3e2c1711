"""Conformance: the JSON-lines protocol, the target-engine runner, the vectors and the fuzzer."""

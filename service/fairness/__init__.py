"""Provably fair shuffles: seed chains, commitments and the fairness stream."""

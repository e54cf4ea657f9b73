"""Events of a match as the store keeps them: codec, upcasting, hash chain, streams."""

"""Analysis: the double-dummy solver and claim verification, built on the game and the kernel."""

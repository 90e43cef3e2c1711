# Doubles are trump; 5-5 is led and seat 2, holding a double, plays 2-1.
rules standard
seed 1

hand 1
first 0
deal 0: 6-3 5-4 4-3 4-2 3-3 2-2 1-1
deal 1: 6-4 6-2 6-1 5-3 4-1 3-2 3-1
deal 2: 6-6 6-5 5-2 5-1 4-4 2-1 0-0
widow 5-5
0 bids 4
1 passes
2 passes
discard 4-2
trump doubles
trick 1: 5-5 3-1 2-1

# Doubles are trump; 6-6 is led and seat 2, holding a double, plays 3-1.
rules standard
seed 1

hand 1
first 2
deal 0: 6-5 6-4 5-2 4-4 3-2 3-1 1-1
deal 1: 6-2 6-1 5-3 5-1 4-2 3-3 0-0
deal 2: 6-6 6-3 5-5 4-3 4-1 2-2 2-1
widow 5-4
2 passes
0 passes
1 passes

hand 2
first 0
deal 0: 6-4 5-3 5-2 5-1 4-1 3-2 1-1
deal 1: 6-6 6-5 6-3 6-2 6-1 2-1 0-0
deal 2: 5-5 5-4 4-4 4-3 4-2 3-3 3-1
widow 2-2
0 bids 4
1 bids 5
2 passes
discard 2-1
trump doubles
trick 1: 6-6 3-1

# Hand 1: a call out of turn.
rules standard
seed 31

hand 1
first 0
deal 0: 6-3 6-2 5-4 4-2 3-3 3-1 2-2
deal 1: 6-6 6-4 6-1 5-2 4-3 4-1 3-2
deal 2: 6-5 5-5 5-3 4-4 2-1 1-1 0-0
widow 5-1
0 passes
2 bids 5
1 passes

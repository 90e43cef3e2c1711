# Hand 1: a call out of turn.
rules standard
seed 31

hand 1
first 2
deal 0: 6-6 6-1 5-4 5-1 3-2 3-1 2-2
deal 1: 6-4 6-3 6-2 5-3 4-3 1-1 0-0
deal 2: 6-5 5-5 5-2 4-4 4-1 3-3 2-1
widow 4-2
2 passes
1 bids 5
0 passes

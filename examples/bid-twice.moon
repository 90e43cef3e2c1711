# Hand 2: seat 1 calls a second time after every player has called.
rules standard
seed 77

hand 1
first 0
deal 0: 6-3 6-1 5-5 5-4 5-3 5-1 4-1
deal 1: 6-2 4-4 4-3 4-2 3-2 3-1 0-0
deal 2: 6-6 6-5 6-4 5-2 2-2 2-1 1-1
widow 3-3
0 bids 4
1 passes
2 passes
discard 4-1
trump 5
trick 1: 5-5 0-0 5-2
trick 2: 5-4 3-1 6-5
trick 3: 6-6 6-1 6-2
trick 4: 2-2 5-1 3-2
trick 5: 3-3 4-3 1-1
trick 6: 6-3 4-2 6-4
trick 7: 2-1 5-3 4-4

hand 2
first 1
deal 0: 6-2 5-2 5-1 4-4 4-1 2-1 0-0
deal 1: 6-6 6-3 6-1 5-5 5-4 4-2 3-1
deal 2: 6-5 6-4 5-3 4-3 3-3 2-2 1-1
widow 3-2
1 passes
2 bids 4
0 passes
1 bids 5

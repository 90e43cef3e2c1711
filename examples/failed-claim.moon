# Seat 2 lays down their tiles and claims the last 3 tricks.
rules standard
seed 2

hand 1
first 0
deal 0: 5-2 5-1 4-3 4-1 3-3 3-1 0-0
deal 1: 6-5 6-4 6-2 5-5 5-3 2-1 1-1
deal 2: 6-6 6-3 6-1 5-4 4-4 4-2 3-2
widow 2-2
0 bids 4
1 passes
2 passes
discard 4-3
trump 1
trick 1: 5-1 1-1 6-1
trick 2: 5-5 5-4 5-2
trick 3: 6-5 6-6 3-1
trick 4: 3-3 5-3 3-2
trick 5: 2-2 6-2 4-2
trick 6: 0-0 2-1 4-4
trick 7: 6-4 6-3 4-1
score 4 3 0

hand 2
first 1
deal 0: 6-4 6-3 5-4 4-4 2-1 1-1 0-0
deal 1: 6-6 6-1 5-3 4-3 4-1 3-3 3-1
deal 2: 6-5 6-2 5-5 5-2 4-2 3-2 2-2
widow 5-1
1 bids 4
2 bids 5
0 passes
discard 5-1
trump 2
trick 1: 2-2 2-1 3-1
trick 2: 6-2 0-0 4-1
trick 3: 5-2 1-1 3-3
trick 4: 4-2 4-4 4-3
claim 2 all

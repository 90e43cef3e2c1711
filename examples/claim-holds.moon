# Seat 0 lays down their tiles and claims the last 3 tricks.
rules standard
seed 3

hand 1
first 1
deal 0: 6-6 5-3 4-2 4-1 3-3 3-1 2-1
deal 1: 6-4 6-2 5-4 5-2 3-2 1-1 0-0
deal 2: 6-5 6-1 5-5 5-1 4-4 4-3 2-2
widow 6-3
1 bids 4
2 passes
0 passes
discard 5-4
trump 2
trick 1: 6-2 2-2 2-1
trick 2: 5-5 5-3 3-2
trick 3: 1-1 5-1 3-1
trick 4: 0-0 4-3 4-2
trick 5: 6-6 6-3 6-1
trick 6: 3-3 5-2 4-4
trick 7: 6-4 6-5 4-1
score 2 -4 2

hand 2
first 2
deal 0: 6-2 5-2 3-3 3-2 2-2 2-1 0-0
deal 1: 6-6 6-4 6-1 5-5 5-3 3-1 1-1
deal 2: 6-5 6-3 5-4 4-4 4-3 4-2 4-1
widow 5-1
2 bids 4
0 bids 5
1 passes
discard 5-1
trump 2
trick 1: 2-2 1-1 4-2
trick 2: 6-2 3-1 4-1
trick 3: 5-2 6-1 4-3
trick 4: 3-2 5-3 4-4
claim 0 all

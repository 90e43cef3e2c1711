# A four-player partnership game (seats 0+2 against 1+3), with the score sheet
# after each hand. moonrules check examples/partnership-game.moon
rules partnership
seed 42

hand 1
first 0
deal 0: 6-5 6-4 6-1 5-1 3-0 2-2 2-0
deal 1: 6-3 5-4 5-2 4-0 3-3 3-2 0-0
deal 2: 6-6 5-3 4-4 4-3 3-1 2-1 1-1
deal 3: 6-2 6-0 5-5 5-0 4-2 4-1 1-0
0 passes
1 bids 4
2 passes
3 passes
trump 3
trick 1: 3-3 3-1 1-0 3-0
trick 2: 6-3 4-3 4-1 2-0
trick 3: 0-0 5-3 5-0 2-2
trick 4: 6-6 6-0 6-1 3-2
trick 5: 5-4 1-1 5-5 5-1
trick 6: 6-2 6-4 4-0 2-1
trick 7: 6-5 5-2 4-4 4-2
score 3 4

hand 2
first 1
deal 0: 6-3 5-3 5-0 4-0 3-3 3-2 2-0
deal 1: 6-4 6-2 6-1 4-4 3-0 1-1 0-0
deal 2: 6-6 6-5 5-4 5-2 4-1 2-1 1-0
deal 3: 6-0 5-5 5-1 4-3 4-2 3-1 2-2
1 bids 4
2 passes
3 passes
0 bids 5
trump 3
trick 1: 3-3 3-0 1-0 3-1
trick 2: 6-3 0-0 2-1 4-3
trick 3: 5-3 1-1 4-1 2-2
trick 4: 5-0 6-1 5-2 5-5
trick 5: 6-0 3-2 6-2 6-5
trick 6: 4-0 4-4 5-4 4-2
trick 7: 6-4 6-6 5-1 2-0
score 8 6

hand 3
first 2
deal 0: 6-3 6-1 5-3 4-4 4-2 3-1 2-2
deal 1: 6-4 5-1 4-3 4-1 4-0 2-0 0-0
deal 2: 6-5 5-4 5-2 3-3 3-0 1-1 1-0
deal 3: 6-6 6-2 6-0 5-5 5-0 3-2 2-1
2 bids 4
3 passes
0 passes
1 passes
trump 5
trick 1: 6-5 5-5 5-3 5-1
trick 2: 6-6 6-1 6-4 5-2
trick 3: 3-3 3-2 3-1 4-3
trick 4: 1-1 2-1 2-2 4-1
trick 5: 5-4 5-0 4-2 0-0
trick 6: 3-0 6-0 6-3 2-0
trick 7: 4-4 4-0 1-0 6-2
score 12 7

hand 4
first 3
deal 0: 6-5 6-0 5-2 4-4 4-0 3-0 2-2
deal 1: 6-6 6-4 6-2 6-1 5-4 3-1 1-1
deal 2: 4-3 4-1 3-3 3-2 2-1 2-0 1-0
deal 3: 6-3 5-5 5-3 5-1 5-0 4-2 0-0
3 bids 4
0 passes
1 passes
2 passes
trump 5
trick 1: 5-5 5-2 5-4 1-0
trick 2: 5-3 6-5 1-1 2-0
trick 3: 4-4 6-4 4-1 4-2
trick 4: 2-2 6-2 2-1 5-0
trick 5: 0-0 3-0 3-1 3-2
trick 6: 6-3 6-0 6-6 3-3
trick 7: 6-1 4-3 5-1 4-0
score 14 11

hand 5
first 0
deal 0: 6-5 5-5 5-4 3-3 3-2 3-0 1-0
deal 1: 6-1 5-3 4-2 3-1 2-2 2-1 0-0
deal 2: 6-4 6-3 6-2 6-0 5-0 4-3 1-1
deal 3: 6-6 5-2 5-1 4-4 4-1 4-0 2-0
0 bids 4
1 passes
2 passes
3 passes
trump 5
trick 1: 5-5 5-3 5-0 5-1
trick 2: 6-5 0-0 1-1 5-2
trick 3: 3-3 3-1 4-3 2-0
trick 4: 5-4 2-1 6-0 4-0
trick 5: 3-2 2-2 6-3 4-1
trick 6: 6-4 6-6 1-0 6-1
trick 7: 4-4 3-0 4-2 6-2
score 18 13

hand 6
first 1
deal 0: 6-3 5-3 3-3 3-2 3-0 2-0 0-0
deal 1: 6-5 6-4 5-2 4-3 3-1 2-1 1-1
deal 2: 6-2 6-1 5-5 5-1 4-4 4-0 1-0
deal 3: 6-6 6-0 5-4 5-0 4-2 4-1 2-2
1 passes
2 bids 4
3 passes
0 bids 5
trump 3
trick 1: 3-3 3-1 1-0 2-2
trick 2: 6-3 4-3 4-0 4-1
trick 3: 5-3 1-1 5-1 5-0
trick 4: 3-2 2-1 6-1 4-2
trick 5: 0-0 5-2 4-4 6-0
trick 6: 3-0 6-4 6-2 5-4
trick 7: 2-0 6-5 5-5 6-6
score 23 13

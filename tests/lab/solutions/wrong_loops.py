# Wrong: never ends when the goal cannot be reached. Each level is a set, but nothing
# remembers the squares of earlier levels, so a level that only leads back to squares
# already seen is searched again and again.
class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            quot, rem = divmod(s - 1, n)
            return n - 1 - quot, rem if quot % 2 == 0 else n - 1 - rem

        level, moves = {1}, 0
        while level:  # the mistake: never empty once the search goes round in circles
            if n * n in level:
                return moves
            following = set()
            for s in level:
                for s2 in range(s + 1, min(s + 6, n * n) + 1):
                    r, c = cell(s2)
                    following.add(board[r][c] if board[r][c] != -1 else s2)
            level, moves = following, moves + 1
        return -1

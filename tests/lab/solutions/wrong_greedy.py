# Wrong: greedy, always the farthest square one move reaches.
class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            quot, rem = divmod(s - 1, n)
            return n - 1 - quot, rem if quot % 2 == 0 else n - 1 - rem

        s, moves, seen = 1, 0, {1}
        while s != n * n:
            best = s
            for s2 in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(s2)
                best = max(best, board[r][c] if board[r][c] != -1 else s2)
            if best in seen:
                return -1
            seen.add(best)
            s, moves = best, moves + 1
        return moves

# Wrong: an iterative-deepening search that gives up after 4 rolls.
class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            q, r = divmod(s - 1, n)
            return n - 1 - q, (r if q % 2 == 0 else n - 1 - r)

        def reach(s, left):
            if s == n * n:
                return True
            if left == 0:
                return False
            for d in range(1, 7):
                t = s + d
                if t > n * n:
                    break
                r, c = cell(t)
                if board[r][c] != -1:
                    t = board[r][c]
                if reach(t, left - 1):
                    return True
            return False

        for depth in range(0, 5):  # the mistake: a cap of 4 rolls
            if reach(1, depth):
                return depth
        return -1

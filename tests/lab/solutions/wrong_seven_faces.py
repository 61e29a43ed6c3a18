# Wrong: range(1, 8) rolls a seven.
import collections


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def where(s):
            q, r = divmod(s - 1, n)
            row = n - 1 - q
            col = r if q % 2 == 0 else n - 1 - r
            return row, col

        seen = {1: 0}
        todo = collections.deque([1])
        while todo:
            s = todo.popleft()
            if s == n * n:
                return seen[s]
            for die in range(1, 8):  # the mistake: 1..7
                t = s + die
                if t > n * n:
                    break
                r, c = where(t)
                if board[r][c] != -1:
                    t = board[r][c]
                if t not in seen:
                    seen[t] = seen[s] + 1
                    todo.append(t)
        return -1

# Wrong: a list used as the queue, popped from the wrong end (depth-first order).
class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            quot, rem = divmod(s - 1, n)
            return n - 1 - quot, rem if quot % 2 == 0 else n - 1 - rem

        dist = {1: 0}
        queue = [1]
        while queue:
            s = queue.pop()  # the mistake: pop() takes the newest, not the oldest
            for s2 in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(s2)
                if board[r][c] != -1:
                    s2 = board[r][c]
                if s2 not in dist:
                    dist[s2] = dist[s] + 1
                    if s2 == n * n:
                        return dist[s2]
                    queue.append(s2)
        return -1

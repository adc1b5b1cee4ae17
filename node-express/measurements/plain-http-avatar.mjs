// The avatar's 302 on node:http alone, no Express: the baseline of avatar-gc.sh. Not a stack;
// only GET /avatar is served.
import http from 'node:http'

const AVATAR_COUNT = 21

http
  .createServer((req, res) => {
    const n = 1 + Math.floor(Math.random() * AVATAR_COUNT)
    res.writeHead(302, { Location: `https://avatar.example.com/Renard-${n}.png` })
    res.end()
  })
  .listen(Number(process.env.PORT), '127.0.0.1')

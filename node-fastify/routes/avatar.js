// GET /avatar: a 302 to one of AVATAR_COUNT pictures, drawn anew for every request, from the
// settings (`fastify.config`).
export default async function avatarRoutes(fastify) {
  const { config } = fastify
  fastify.get('/avatar', async (request, reply) => {
    const n = 1 + Math.floor(Math.random() * config.avatarCount)
    // 302 said outright: the contract's status, whatever a framework's default.
    return reply.redirect(`${config.avatarBaseUrl}/Renard-${n}.png`, 302)
  })
}

// Seed 000 "Node.js · jose": signs a Reception identity token with jose's SignJWT (HS256, expiring in 7 days).
// Usage: RECEPTION_IDENTITY_SECRET=... node node-jose.js USER_ID [EMAIL] [NAME]
const { SignJWT } = require("jose");

const secret = new TextEncoder().encode(process.env.RECEPTION_IDENTITY_SECRET ?? "");

function receptionToken(user) {
  return new SignJWT({ user_id: String(user.id), email: user.email, name: user.name })
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime("7d")
    .sign(secret);
}

const [id, email, name] = process.argv.slice(2);
receptionToken({ id, email: email || undefined, name: name || undefined })
  .then((token) => console.log(token))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });

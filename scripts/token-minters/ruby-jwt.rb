# Seed 000 "Ruby · ruby-jwt": signs a Reception identity token with JWT.encode (HS256, expiring in 7 days).
# Usage: RECEPTION_IDENTITY_SECRET=... ruby ruby-jwt.rb USER_ID [EMAIL] [NAME]
require "jwt"

User = Struct.new(:id, :email, :name)

def reception_token(user)
  claims = {
    user_id: user.id.to_s,
    email: user.email,
    name: user.name,
    exp: Time.now.to_i + 7 * 24 * 60 * 60
  }
  JWT.encode(claims, ENV.fetch("RECEPTION_IDENTITY_SECRET"), "HS256")
end

id, email, name = ARGV

puts reception_token(User.new(id, email, name))

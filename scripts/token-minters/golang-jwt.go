// Seed 000 "Go · golang-jwt": signs a Reception identity token with jwt.NewWithClaims (HS256, expiring in 7 days).
// Usage: RECEPTION_IDENTITY_SECRET=... GO111MODULE=off GOPATH=/usr/share/gocode go run golang-jwt.go USER_ID [EMAIL] [NAME]
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/golang-jwt/jwt"
)

func receptionToken(userID, email, name string) (string, error) {
	claims := jwt.MapClaims{
		"user_id": userID,
		"exp":     time.Now().Add(7 * 24 * time.Hour).Unix(),
	}
	if email != "" {
		claims["email"] = email
	}
	if name != "" {
		claims["name"] = name
	}
	token := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
	return token.SignedString([]byte(os.Getenv("RECEPTION_IDENTITY_SECRET")))
}

func main() {
	arguments := append(os.Args[1:], "", "", "")
	token, err := receptionToken(arguments[0], arguments[1], arguments[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(token)
}

"""The GraphQL API (CONTRACT.md section 8): a second transport over the same services as REST."""

"""OAuth 2.0 (CONTRACT.md section 7): clients, the grant families, signing keys, access tokens,
the identity provider that signs users in, and the authlib server glue.
"""

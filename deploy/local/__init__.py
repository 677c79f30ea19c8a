"""The reference topology on this machine: deploy/local/up and deploy/local/down."""

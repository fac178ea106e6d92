"""The AI turn driver: activation order -> sight -> target -> sequence -> shots -> steps."""

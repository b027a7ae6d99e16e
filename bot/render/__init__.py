"""Results to ``discord.Embed``: every die shown, colours by outcome, always within limits."""

"""The live board (`automa serve`): the session over JSON and HTTP, and the page that draws it."""

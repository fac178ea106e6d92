"""The Red Box campaigns: the route, the heroes' boards from room to room, the campaign log."""

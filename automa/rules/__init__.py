"""Pure rule functions of the Red Box AI: order, targeting, shot choice, damage tokens."""

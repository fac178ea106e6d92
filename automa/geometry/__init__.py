"""The table modelled in shapely and numpy: every geometric answer comes with its margin in cm."""

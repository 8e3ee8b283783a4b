// Cards: names, faces and the order of a hand.

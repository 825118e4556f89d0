"""Boards, their notation, and the dice that roll them."""

from .board import Board, neighbours
from .dice import DiceSet, dice_sets, get_dice
from .notation import parse_board, parse_board_file

__all__ = ["Board", "DiceSet", "dice_sets", "get_dice", "neighbours", "parse_board", "parse_board_file"]

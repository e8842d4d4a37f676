from flask import Blueprint

bp = Blueprint("docs", __name__)

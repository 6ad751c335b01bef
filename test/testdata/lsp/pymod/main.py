from models import Server, helper

s = "😀"; srv = Server(); n: int = srv.run()
v: int = helper(3)  # 😀 pyright: str is not assignable to int
